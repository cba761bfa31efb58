from sitebuild.finish import main

main()

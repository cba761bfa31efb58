"""Which QR codes a phone still scans from a table card: the measurement behind web/shared/qr.js's limit.

The site's own generator (qrcode-generator, medium error correction, as web/shared/qr.js calls it) makes
the code of a link of each length; the code is shown or printed `--card-mm` wide, seen by a phone camera
whose scanner reads a `--preview-px`-wide preview frame (phone camera apps decode a video preview,
not the 12 MP photo) with a `--fov` degree horizontal field of view from `--distance-cm`, with
defocus blur and sensor noise; zxing-cpp decodes it. A length scans when every trial decodes the
exact link. A simulation, not a phone: its assumptions are the options, stated in the output.

    .venv/bin/python -m tools.qr_scan                                  # the dialog's code on a phone screen
    .venv/bin/python -m tools.qr_scan --card-mm 130 --distance-cm 30 50  # the printed table card
"""

from __future__ import annotations

import argparse
import json
import math
import random
import subprocess
from pathlib import Path

import zxingcpp
from PIL import Image, ImageFilter

QR_LIBRARY = Path(__file__).resolve().parents[1] / "node_modules" / "qrcode-generator" / "dist" / "qrcode.mjs"

# Module matrices from the site's generator, one per text (stdin: a JSON list of texts).
MATRICES = """
import qrcode from %s;
let input = "";
for await (const chunk of process.stdin) input += chunk;
const out = JSON.parse(input).map((text) => {
  const qr = qrcode(0, "M"); qr.addData(text); qr.make();
  const n = qr.getModuleCount();
  return Array.from({ length: n }, (_, r) => Array.from({ length: n }, (_, c) => (qr.isDark(r, c) ? "1" : "0")).join(""));
});
process.stdout.write(JSON.stringify(out));
"""


def matrices(texts: list[str]) -> list[list[str]]:
    script = MATRICES % json.dumps(QR_LIBRARY.as_uri())
    done = subprocess.run(["node", "--input-type=module", "-e", script], input=json.dumps(texts),
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def photo(matrix: list[str], px_per_module: float, blur: float, noise: float, rng: random.Random) -> Image.Image:
    """The code with its quiet zone as the preview frame sees it: resampled, blurred, noisy."""
    n = len(matrix) + 8
    sharp = Image.new("L", (n, n), 255)
    for r, row in enumerate(matrix):
        for c, bit in enumerate(row):
            if bit == "1":
                sharp.putpixel((c + 4, r + 4), 0)
    size = max(1, round(n * px_per_module))
    # Ink on paper under hall lighting: not pure black and white.
    seen = sharp.resize((size, size), Image.BILINEAR).point(lambda v: 40 + v * 170 // 255)
    seen = seen.filter(ImageFilter.GaussianBlur(blur))
    frame = Image.new("L", (size + 40, size + 40), 210)
    frame.paste(seen, (20, 20))
    return frame.point(lambda v: max(0, min(255, round(v + rng.gauss(0, noise)))))


def scans(text: str, matrix: list[str], px_per_module: float, args, rng: random.Random) -> bool:
    for _ in range(args.trials):
        found = zxingcpp.read_barcodes(photo(matrix, px_per_module, args.blur, args.noise, rng),
                                       formats=zxingcpp.BarcodeFormat.QRCode)
        if not any(result.text == text for result in found):
            return False
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--card-mm", type=float, default=44, help="width (a phone screen's dialog: ~44 mm) of the code with its quiet zone")
    parser.add_argument("--preview-px", type=int, default=1920, help="width of the scanner's preview frame")
    parser.add_argument("--fov", type=float, default=69, help="camera's horizontal field of view, degrees")
    parser.add_argument("--distance-cm", type=float, nargs="+", default=[15, 20])
    parser.add_argument("--blur", type=float, default=0.8, help="Gaussian defocus, preview pixels")
    parser.add_argument("--noise", type=float, default=6, help="sensor noise, grey levels (sd)")
    parser.add_argument("--trials", type=int, default=5)
    args = parser.parse_args()
    rng = random.Random(1)
    lengths = list(range(200, 2400, 100))
    # Links are percent-encoded ASCII: random URL characters of each length.
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789%-._"
    texts = ["https://example.org/naruto/?naruto-reserve.deck=" + "".join(rng.choice(alphabet) for _ in range(n - 48))
             for n in lengths]
    codes = matrices(texts)
    print(f"card {args.card_mm:g} mm, preview {args.preview_px} px, field of view {args.fov:g}°, "
          f"blur {args.blur:g} px, noise {args.noise:g}, {args.trials} trials each")
    print("link chars | modules | " + " | ".join(f"{d:g} cm" for d in args.distance_cm))
    for text, matrix in zip(texts, codes):
        cells = []
        for distance in args.distance_cm:
            frame_mm = 2 * distance * 10 * math.tan(math.radians(args.fov / 2))
            px_per_module = args.preview_px / frame_mm * args.card_mm / (len(matrix) + 8)
            cells.append(f"{'yes' if scans(text, matrix, px_per_module, args, rng) else 'no'} ({px_per_module:.1f} px)")
        print(f"{len(text):>10} | {len(matrix):>7} | " + " | ".join(cells))


if __name__ == "__main__":
    main()

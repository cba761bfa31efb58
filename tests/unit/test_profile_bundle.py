"""tools.profile_bundle's source-map reading (base64 VLQ, as the source map spec defines it)."""

from __future__ import annotations

from tools.profile_bundle import SourceMap, vlq


def test_vlq_reads_signs_and_continuations():
    assert vlq("AAAA") == [0, 0, 0, 0]
    assert vlq("CACD") == [1, 0, 1, -1]
    assert vlq("gB") == [16]  # a continuation digit, then the rest
    assert vlq("2HwcF") == [123, 456, -2]


def test_a_position_maps_to_the_source_of_the_segment_it_falls_in():
    data = {"sources": ["node_modules/rxjs/dist/internal/Subscriber.ts",
                        "src/templates/assets/javascripts/browser/document/index.ts"],
            # line 0: column 4 from source 0, column 10 from source 1; line 1: column 0 from source 1
            "mappings": "IAAA,MCAA;AAAA"}
    source_map = SourceMap(data)
    assert source_map.source(0, 2) == "(unmapped: the bundle's own wrapper)"
    assert source_map.source(0, 4) == source_map.source(0, 9) == "rxjs: internal/Subscriber.ts"
    assert source_map.source(0, 10) == source_map.source(1, 99) == "browser/document/index.ts"

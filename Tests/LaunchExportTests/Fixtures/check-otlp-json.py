#!/usr/bin/env python3
"""Checks OTLP/JSON files against the official protobuf definitions.

    pip install opentelemetry-proto
    python3 Tests/LaunchExportTests/Fixtures/check-otlp-json.py Tests/LaunchExportTests/Fixtures/*.otlp.json

OTLP/JSON writes trace and span ids as hex; the plain protobuf JSON mapping
that json_format.Parse implements expects base64 for `bytes` fields. A hex id
parsed as base64 passes silently with the wrong length (32 hex digits decode
to 24 bytes), so each id is first checked to be lowercase hex of the right
length, turned into base64, and after parsing its decoded length is checked
again: 16 bytes for a trace id, 8 for a span id. Then every span must end no
earlier than it starts, and every parent must be a span of the same trace.
Prints one line per file; exits 1 on the first problem.
"""
import base64
import json
import re
import sys

from google.protobuf import json_format
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

HEX = {"traceId": 32, "spanId": 16, "parentSpanId": 16}


def to_base64(span, where):
    for key, digits in HEX.items():
        if key not in span:
            continue
        value = span[key]
        if not re.fullmatch("[0-9a-f]{%d}" % digits, value):
            sys.exit(f"{where}: {key} {value!r} is not {digits} lowercase hex digits")
        if value == "0" * digits:
            sys.exit(f"{where}: {key} is all zeros")
        span[key] = base64.b64encode(bytes.fromhex(value)).decode()


def check(path):
    with open(path, encoding="utf-8") as file:
        document = json.load(file)
    for r, resource_spans in enumerate(document["resourceSpans"]):
        for s, scope_spans in enumerate(resource_spans["scopeSpans"]):
            for n, span in enumerate(scope_spans["spans"]):
                to_base64(span, f"{path}: span {r}.{s}.{n}")
    request = ExportTraceServiceRequest()
    json_format.Parse(json.dumps(document), request)  # raises on any field or type the definitions do not have

    spans = [span for rs in request.resource_spans for ss in rs.scope_spans for span in ss.spans]
    ids = {(span.trace_id, span.span_id) for span in spans}
    traces = {span.trace_id for span in spans}
    if len(ids) != len(spans):
        sys.exit(f"{path}: span ids repeat")
    for span in spans:
        if len(span.trace_id) != 16 or len(span.span_id) != 8 or len(span.parent_span_id) not in (0, 8):
            sys.exit(f"{path}: span {span.name!r} has ids of {len(span.trace_id)}/{len(span.span_id)}/{len(span.parent_span_id)} bytes")
        if span.end_time_unix_nano < span.start_time_unix_nano or span.start_time_unix_nano == 0:
            sys.exit(f"{path}: span {span.name!r} ends before it starts, or has no start")
        if span.parent_span_id and (span.trace_id, span.parent_span_id) not in ids:
            sys.exit(f"{path}: span {span.name!r} has a parent that is not in its trace")
        for event in span.events:
            if event.time_unix_nano == 0:
                sys.exit(f"{path}: event {event.name!r} has no time")
    roots = sum(1 for span in spans if not span.parent_span_id)
    if roots != len(traces):
        sys.exit(f"{path}: {roots} root spans for {len(traces)} traces")
    print(f"{path}: ok, {len(spans)} spans in {len(traces)} traces parse as ExportTraceServiceRequest")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: check-otlp-json.py FILE.otlp.json...")
    for argument in sys.argv[1:]:
        check(argument)

"""Per result: this package's whole conversion (``tool_result`` + ``tool_result_messages``, from
the JSON text to the message to append) against the official ``mcp`` SDK's decode alone
(``CallToolResult.model_validate_json`` of the same text), on the everything server's real
results (``tests/vectors/mcp/everything.*.json``). Medians of repeated runs, in one process;
the ratio is ours over the SDK's, under 1.0 where the whole conversion is faster.

    python bindings/python/bench.py [--rounds N]

It needs the package and its ``mcp`` extra (the SDK it is measured against):
``pip install './bindings/python[mcp]'``.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import statistics
import sys
import time

try:
    from mcp.types import CallToolResult
except ModuleNotFoundError:
    sys.exit("bench.py measures against the mcp SDK: pip install './bindings/python[mcp]'")

import mcp_agent_view as mav

VECTORS = pathlib.Path(__file__).resolve().parents[2] / "tests" / "vectors" / "mcp"


def results():
    """Every everything-server tool result, as the JSON text of its result."""
    for path in sorted(VECTORS.glob("everything.*.json")):
        file = json.loads(path.read_bytes())
        result = (file.get("response") or {}).get("result")
        if isinstance(result, dict) and isinstance(result.get("content"), list):
            yield path.stem.removeprefix("everything."), json.dumps(result)


def per_call(fn, text, rounds, batch):
    """The median time of one call, in microseconds."""
    samples = []
    for _ in range(rounds):
        start = time.perf_counter_ns()
        for _ in range(batch):
            fn(text)
        samples.append((time.perf_counter_ns() - start) / batch / 1000)
    return statistics.median(samples)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=31, help="samples per case (default 31)")
    parser.add_argument("--batch", type=int, default=200, help="calls per sample (default 200)")
    args = parser.parse_args()
    cases = list(results())
    if not cases:
        print(f"bench: no everything-server results under {VECTORS}", file=sys.stderr)
        return 2
    registry = mav.Registry(seed=7)

    def ours(text):
        return mav.tool_result_messages([mav.tool_result(text, "tool", "toolu_1", registry)])

    def sdk(text):
        return CallToolResult.model_validate_json(text)

    for _, text in cases:  # both decode every case before any is timed
        ours(text), sdk(text)
    print(f"{'result':40} {'bytes':>7} {'ours µs':>9} {'sdk µs':>9} {'ratio':>6}")
    total_ours = total_sdk = 0.0
    for name, text in cases:
        a = per_call(ours, text, args.rounds, args.batch)
        b = per_call(sdk, text, args.rounds, args.batch)
        total_ours, total_sdk = total_ours + a, total_sdk + b
        print(f"{name:40} {len(text):7} {a:9.2f} {b:9.2f} {a / b:6.2f}")
    print(f"{'all results':40} {'':7} {total_ours:9.2f} {total_sdk:9.2f} {total_ours / total_sdk:6.2f}")
    print(f"ratio {total_ours / total_sdk:.2f} (ours, the whole conversion, over the SDK's decode alone)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

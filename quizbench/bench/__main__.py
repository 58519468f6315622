"""``python -m quizbench.bench [--quick] [--json FILE] [--database-url URL]``: build content
and history at scale, measure the app against its floors, print and save the figures."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from quizbench.bench.run import report, run_bench


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m quizbench.bench", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="small sizes, for CI")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON to this file")
    parser.add_argument("--database-url", metavar="URL",
                        help="write the history to this database (PostgreSQL: a scratch database on that server)")
    args = parser.parse_args()
    figures = run_bench(quick=args.quick, json_path=args.json, log=lambda m: print(m, file=sys.stderr),
                        database_url=args.database_url)
    print(report(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())

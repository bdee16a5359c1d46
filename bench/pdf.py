"""How long the settlement PDF of a 1,000-hand session takes to render.

    .venv/bin/python bench/pdf.py [LOG] [--hands N] [--repeat R]

Without LOG a session of N generated hands is used (the same every run). The
replay is timed apart from the render: the target (1.5 s) is for the render.
A trivial one-page PDF is timed as the floor, so a slow machine shows as a
high floor rather than as a slow report.
"""

from __future__ import annotations

import argparse
import io
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from replay import best_of  # noqa: E402 - bench/replay.py, beside this file
from reportlab.platypus import Paragraph, SimpleDocTemplate  # noqa: E402

from referee.devtools.samplegen import make_session  # noqa: E402
from referee.record import load_log, read_log_file  # noqa: E402
from referee.replay import replay  # noqa: E402
from referee.reports.common import register_fonts, styles  # noqa: E402
from referee.reports.settlement import render_settlement  # noqa: E402

TARGET = 1.5


def trivial_pdf() -> bytes:
    buf = io.BytesIO()
    doc = SimpleDocTemplate(buf, invariant=1)
    doc.build([Paragraph("Settlement: José, Jürgen, Zoë, Łukasz", styles()["body"])])
    return buf.getvalue()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("log", nargs="?")
    ap.add_argument("--hands", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    log = read_log_file(args.log) if args.log else load_log(make_session(args.hands))
    t = time.perf_counter()
    session = replay(log)
    replay_s = time.perf_counter() - t
    # Font loading is a once-per-process cost, not a per-report one.
    register_fonts()
    floor, floor_med = best_of(trivial_pdf, args.repeat)
    best, median = best_of(lambda: render_settlement(session), args.repeat)
    pages = render_settlement(session).count(b"/Type /Page\n")
    hands = len(session.table.hands)
    print(f"session: {hands} hands, {len(session.log['players'])} players "
          f"(replay {replay_s:.3f} s, not counted)")
    print(f"settlement pdf: best {best:.3f} s, median {median:.3f} s, ~{pages} pages; "
          f"{best / TARGET:.2f} of the {TARGET} s target")
    print(f"trivial 1-page pdf (floor): best {floor:.4f} s, median {floor_med:.4f} s; "
          f"{floor / TARGET:.3f} of the target; settlement = {best / floor:.0f}x floor")
    return 0 if best < TARGET else 1


if __name__ == "__main__":
    sys.exit(main())

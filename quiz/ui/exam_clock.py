"""The mock exam's clock: counted down in the browser, one server run at the deadline.

The server draws the time left once per run, as an ``st.metric``; a small script of ours,
in an iframe beside it (same origin as the page), counts that reading down each quarter
second in the browser: no server run per second. The deadline is enforced by the server
(every save and hand-in is checked against it); what closes the exam on screen is a fragment
with ``run_every`` set to the time left: the browser asks for one run at the deadline, and
that run reruns the page, which finds the exam over. The clock is drawn with the page, outside
the exam question's fragment: a Save or a Next (the question's own runs) leaves it and its
timer as they are, and every full run (a reload, a reconnect, a resume) draws it again from
the server's reading, arming the timer with the time left then.

The iframe shows nothing and holds no text but digits: the label is the metric's own, and
the script writes only the reading it computes (``MM:SS``, ``H:MM:SS``) into the metric's
text node. Kept free of the app's other modules: the capacity floor app draws the same clock.
"""

from __future__ import annotations

from datetime import timedelta

import streamlit as st

from quiz.ui.streamlit_internals.fragments import running_alone

CLOCK_KEY = "exam-clock"  # the container of the metric: the script finds the metric inside it
DEADLINE_MARGIN_S = 0.3  # the run at the deadline is asked for this long after it

# The reading as ``quiz.training.exams.clock_text`` gives it (partial seconds round up),
# written into the metric's first text node, the others emptied (Streamlit's markdown splits
# "29:59" at the colon). React keeps its own nodes: a later run's reading replaces ours, and
# the script, loaded again with that run's time left, goes on from it.
_SCRIPT = """<!doctype html><html><body><script>
(function () {
  var end = performance.now() + %(left_ms)d;
  function two(n) { return (n < 10 ? "0" : "") + n; }
  function reading(ms) {
    var s = Math.max(Math.ceil(ms / 1000), 0), h = Math.floor(s / 3600), m = Math.floor(s %% 3600 / 60);
    return h ? h + ":" + two(m) + ":" + two(s %% 60) : two(m) + ":" + two(s %% 60);
  }
  function show() {
    var doc = window.parent.document;
    var value = doc.querySelector(".st-key-%(key)s [data-testid='stMetricValue']");
    if (!value) { return; }
    var walker = doc.createTreeWalker(value, NodeFilter.SHOW_TEXT), node, first = true;
    var text = reading(end - performance.now());
    while ((node = walker.nextNode())) {
      var wanted = first ? text : "";
      if (node.nodeValue !== wanted) { node.nodeValue = wanted; }
      first = false;
    }
  }
  show();
  setInterval(show, 250);
})();
</script></body></html>"""


def clock_script(left: timedelta) -> str:
    """The iframe's page: our script with the milliseconds left as its only value."""
    return _SCRIPT % {"left_ms": max(int(left.total_seconds() * 1000), 0), "key": CLOCK_KEY}


def exam_clock(label: str, reading: str, left: timedelta) -> None:
    """The time left (``reading``, labelled ``label``), counted down in the browser; at zero
    one run of the whole page, which closes the exam."""
    with st.container(key=CLOCK_KEY, gap=None):
        st.metric(label, reading)
        st.iframe(clock_script(left), height=1, tab_index=-1)
    st.fragment(_at_deadline, run_every=left.total_seconds() + DEADLINE_MARGIN_S)()


def _at_deadline() -> None:
    """Drawn with the page or the exam's question (nothing to draw); run alone by the
    browser's timer at the deadline: then the whole page runs again, and finds the exam over
    (or, were the timer early, arms it again with the time left)."""
    if running_alone():
        st.rerun(scope="app")

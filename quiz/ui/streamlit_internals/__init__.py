"""Everything of Streamlit beyond ``import streamlit as st``, in one place.

The rest of the app speaks to Streamlit only through ``st``; what reaches past it lives
here, so that an upgrade of Streamlit has one package to read again:

- ``version``: the Streamlit versions this package is written for, checked once per process;
- ``rerun_limit``: reruns at a person's pace, in front of ``Runtime.handle_backmsg``;
- ``upload_limit``: uploads kept only for a page's uploader, within a quota, in front of
  Streamlit's upload manager;
- ``stale_widgets``: a fragment forgets the widgets no longer on the page;
- ``fragments``: whether a run is a fragment's own;
- ``client``: who is asking (the client's address, the browser session);
- ``words``: Streamlit's own words in the reader's language (selectors of its markup);
- ``objects``: the types Streamlit hands a page but does not name at ``st`` (a container,
  an uploaded file).

import-linter keeps the rule (``pyproject.toml``): no module of ``quiz`` outside this package
imports a module of Streamlit other than ``streamlit`` itself.
"""

"""Tools that measure the app from outside it: the page benchmark (``quizbench.bench``) and
the event-day capacity measurement (``quizbench.capacity``). The product never imports them."""

"""The benchmark: ``python -m quiz bench`` measures the app at scale against floors."""

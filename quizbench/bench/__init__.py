"""The page benchmark: ``python -m quizbench.bench`` measures the app at scale against floors."""

"""The floor router's Content page: a file like the app's pages, never run by the benchmark."""

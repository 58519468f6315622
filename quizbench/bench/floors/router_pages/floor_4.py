"""The floor router's Reference page: a file like the app's pages, never run by the benchmark."""

"""The floor router's Review page: a file like the app's pages, never run by the benchmark."""

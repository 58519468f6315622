"""The floor router's Progress page: a file like the app's pages, never run by the benchmark."""

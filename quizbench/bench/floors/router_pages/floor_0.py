"""The floor router's Practice page: a file like the app's pages, never run by the benchmark."""

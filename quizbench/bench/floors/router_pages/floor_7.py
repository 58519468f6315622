"""The floor router's Card review page: a file like the app's pages, never run by the benchmark."""

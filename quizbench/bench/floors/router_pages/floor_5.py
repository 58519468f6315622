"""The floor router's Team page: a file like the app's pages, never run by the benchmark."""

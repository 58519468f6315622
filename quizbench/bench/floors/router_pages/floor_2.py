"""The floor router's Mock exam page: a file like the app's pages, never run by the benchmark."""

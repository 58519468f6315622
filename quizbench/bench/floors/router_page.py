"""Every other page of a floor's router: a file like the app's pages, never run by the benchmark."""

"""The catalog reconciler: resolve the image, unpack it into the store, and serve it, or say why not."""

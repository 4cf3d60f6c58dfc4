"""ROC geometry: the convex hull over models, iso-performance lines, and curve crossings."""

from polars_roc.geometry import crossings, hull, iso

__all__ = ["crossings", "hull", "iso"]

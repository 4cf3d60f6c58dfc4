"""Scored data the package generates itself, for demos, examples and benchmarks."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

__all__ = ["simulate"]


def simulate(
    n: int = 20_000,
    *,
    models: Sequence[str] = ("logit", "gbm", "baseline"),
    segments: Sequence[str] = ("north", "south", "east", "west"),
    prevalence: float = 0.12,
    seed: int = 0,
) -> pl.DataFrame:
    """
    Simulated out-of-fold scores: every case scored by every model (long format).

    Binormal scores: within each model and segment, negatives' latent scores are N(0, 1) and
    positives' N(d, 1), with `d` growing from the last model to the first and varying by
    segment, so the true AUC is ``Phi(d / sqrt(2))``. Scores are squashed to (0, 1) and
    rounded to 3 decimals, so ties occur as they do in real scorecards. Each case also has a
    `weight` (exposure in (0.5, 2]) and a `fold` in 0..4.

    Parameters
    ----------
    n
        Number of cases (rows per model).
    models, segments
        Model and segment names.
    prevalence
        Share of positive cases, in (0, 1).
    seed
        Random seed; the same seed gives the same frame.

    Returns
    -------
    pl.DataFrame
        ``case, segment, fold, weight, model, label, score`` with ``n * len(models)`` rows.

    Examples
    --------
    >>> from polars_roc.datasets import simulate
    >>> df = simulate(1000, seed=1)
    >>> df.shape
    (3000, 7)
    >>> df.columns
    ['case', 'segment', 'fold', 'weight', 'model', 'label', 'score']
    >>> df["model"].unique().sort().to_list()
    ['baseline', 'gbm', 'logit']
    """
    if not 0.0 < prevalence < 1.0:
        msg = f"prevalence must lie strictly between 0 and 1, got {prevalence!r}"
        raise ValueError(msg)
    if n < 1 or not models or not segments:
        msg = "simulate needs n >= 1, at least one model and at least one segment"
        raise ValueError(msg)
    rng = np.random.default_rng(seed)
    segment = rng.integers(0, len(segments), n)
    label = rng.random(n) < prevalence
    fold = rng.integers(0, 5, n)
    weight = np.round(rng.uniform(0.5, 2.0, n), 2)
    frames = []
    for rank, model in enumerate(models):
        separation = 1.6 - 1.1 * rank / max(len(models) - 1, 1) + 0.15 * (segment % 3)
        latent = rng.normal(size=n) + separation * label
        score = np.round(1.0 / (1.0 + np.exp(-(latent - 1.5))), 3)
        frames.append(
            pl.DataFrame(
                {
                    "case": np.arange(n),
                    "segment": np.asarray(segments)[segment],
                    "fold": fold,
                    "weight": weight,
                    "model": model,
                    "label": label,
                    "score": score,
                }
            )
        )
    return pl.concat(frames)

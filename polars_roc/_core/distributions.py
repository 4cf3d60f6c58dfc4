"""Normal and Student t distributions in numpy: no scipy at run time.

The t distribution's tails come from the regularized incomplete beta function (a continued
fraction), its quantiles from a safeguarded Newton iteration on the log scale.
"""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np
import numpy.typing as npt
import polars as pl

FloatArray = npt.NDArray[np.float64]

_lgamma_each = np.vectorize(math.lgamma, otypes=[np.float64])


def _lgamma(x: FloatArray) -> FloatArray:
    """``math.lgamma`` elementwise, one call per distinct value (counts repeat a lot)."""
    values = np.asarray(x, dtype=np.float64)
    if values.size == 0:
        return values
    distinct, which = np.unique(values, return_inverse=True)
    return np.asarray(_lgamma_each(distinct)[which].reshape(values.shape), dtype=np.float64)


_erfc = np.vectorize(math.erfc, otypes=[np.float64])


def normal_cdf(x: npt.ArrayLike) -> FloatArray:
    """
    Standard normal distribution function, accurate in both tails (via ``math.erfc``).

    Examples
    --------
    >>> from polars_roc._core.distributions import normal_cdf
    >>> [round(float(v), 6) for v in normal_cdf([-1.959964, 0.0, 1.0])]
    [0.025, 0.5, 0.841345]
    """
    values = np.asarray(x, dtype=np.float64)
    return np.asarray(0.5 * _erfc(-values / math.sqrt(2.0)), dtype=np.float64)


def normal_quantile(p: float) -> float:
    """
    Standard normal quantile (Wichura's AS241 via :class:`statistics.NormalDist`).

    Examples
    --------
    >>> from polars_roc._core.distributions import normal_quantile
    >>> round(normal_quantile(0.975), 6)
    1.959964
    """
    return NormalDist().inv_cdf(p)


#: :func:`normal_quantile` elementwise over an array (every p strictly inside (0, 1)).
normal_quantiles = np.vectorize(NormalDist().inv_cdf, otypes=[np.float64])


def _betacf(a: FloatArray, b: FloatArray, x: FloatArray) -> FloatArray:
    """
    Continued fraction of the incomplete beta function (modified Lentz), vectorized.

    Each iteration works only on the entries that have not converged yet, so one slowly
    converging entry does not make every other entry iterate with it.
    """
    tiny = 1e-300

    def guard(v: FloatArray) -> FloatArray:
        return np.where(np.abs(v) < tiny, tiny, v)

    shape = x.shape
    a, b, x = (np.broadcast_to(v, shape).ravel() for v in (a, b, x))
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = np.ones_like(x)
    d = 1.0 / guard(1.0 - qab * x / qap)
    h = d.copy()
    live = np.arange(x.size)  # the entries still iterating
    for m in range(1, 100_000):
        if live.size == 0:
            break
        m2 = 2.0 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 / guard(1.0 + aa * d)
        c = guard(1.0 + aa / c)
        step = d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 / guard(1.0 + aa * d)
        c = guard(1.0 + aa / c)
        delta = d * c
        h[live] = h[live] * step * delta
        going = np.abs(delta - 1.0) >= 1e-15  # NaN stops too: h is NaN for good
        live = live[going]
        a, b, x, c, d = a[going], b[going], x[going], c[going], d[going]
        qab, qap, qam = qab[going], qap[going], qam[going]
    return h.reshape(shape)


def _stirling_delta(x: FloatArray) -> FloatArray:
    """``lgamma(x) - ((x - 1/2) log x - x + log(2 pi) / 2)`` for x >= 20 (Stirling's series)."""
    x2 = x * x
    return np.asarray((1 / 12 - (1 / 360 - (1 / 1260 - 1 / (1680 * x2)) / x2) / x2) / x)


def _lgamma_step(x: FloatArray, s: FloatArray) -> FloatArray:
    """``lgamma(x + s) - lgamma(x)`` without the cancellation of two large lgammas."""
    big = x >= 20  # the series' next term is below 2e-15 there
    xb = np.where(big, x, 20.0)
    stirling = (
        (xb - 0.5) * np.log1p(s / xb)
        + s * np.log(xb + s)
        - s
        + _stirling_delta(xb + s)
        - _stirling_delta(xb)
    )
    direct = _lgamma(np.where(big, 1.0, x + s)) - _lgamma(np.where(big, 1.0, x))
    return np.asarray(np.where(big, stirling, direct), dtype=np.float64)


def _lbeta(a: FloatArray, b: FloatArray) -> FloatArray:
    """``log B(a, b)``, accurate when one argument is large."""
    small, large = np.minimum(a, b), np.maximum(a, b)
    return np.asarray(_lgamma(small) - _lgamma_step(large, small), dtype=np.float64)


def _betainc(
    a: FloatArray,
    b: FloatArray,
    x: FloatArray,
    y: FloatArray,
    log_x: FloatArray,
    log_y: FloatArray,
    log_beta: FloatArray,
) -> FloatArray:
    """
    Regularized incomplete beta ``I_x(a, b)`` from ``x``, ``y = 1 - x`` and their logs.

    `log_beta` is ``log B(a, b)`` (symmetric in a and b), computed once by the caller.

    The continued fraction converges fast for ``x < (a + 1) / (a + b + 2)``; above that the
    symmetry ``I_x(a, b) = 1 - I_y(b, a)`` is used. Passing ``y`` and the logs exactly keeps
    full relative accuracy near 0 and 1.
    """
    flip = x > (a + 1.0) / (a + b + 2.0)
    a1, b1 = np.where(flip, b, a), np.where(flip, a, b)
    x1 = np.where(flip, y, x)
    lx, ly = np.where(flip, log_y, log_x), np.where(flip, log_x, log_y)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        front = np.exp(a1 * lx + b1 * ly - log_beta) / a1
        value = front * _betacf(a1, b1, x1)
    value = np.where(np.isneginf(lx), 0.0, np.where(np.isneginf(ly), 1.0, value))
    return np.asarray(np.where(flip, 1.0 - value, value), dtype=np.float64)


def _log1p_square(t: FloatArray, df: FloatArray) -> FloatArray:
    """``log(1 + t² / df)`` without overflow for huge t."""
    with np.errstate(divide="ignore", over="ignore"):
        log_r = 2.0 * np.log(np.abs(t)) - np.log(df)
        r = np.exp(log_r)
        return np.asarray(np.where(r > 1.0, log_r + np.log1p(1.0 / r), np.log1p(r)))


def _t_log_beta(df: FloatArray) -> FloatArray:
    """``log B(df / 2, 1 / 2)``: the normalizing constant of Student's t."""
    return _lbeta(df / 2.0, np.full_like(df, 0.5))


def _t_tail(t: FloatArray, df: FloatArray, log_beta: FloatArray | None = None) -> FloatArray:
    """
    ``P(T > |t|)`` for Student's t: ``I_x(df / 2, 1 / 2) / 2`` with ``x = df / (df + t²)``.

    `log_beta` is :func:`_t_log_beta` of `df`, when the caller has it already.
    """
    if log_beta is None:
        log_beta = _t_log_beta(df)
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        log_r = 2.0 * np.log(np.abs(t)) - np.log(df)  # log(t² / df), finite for huge t
        r = np.exp(log_r)
        x = 1.0 / (1.0 + r)
        y = np.where(np.isinf(r), 1.0, r / (1.0 + r))
        log_x = -_log1p_square(t, df)
        log_y = np.where(r == 0, -np.inf, -np.log1p(1.0 / r))
    return 0.5 * _betainc(df / 2.0, np.full_like(df, 0.5), x, y, log_x, log_y, log_beta)


def student_t_cdf(t: npt.ArrayLike, df: npt.ArrayLike) -> FloatArray:
    """
    Distribution function of Student's t with `df` (real, > 0) degrees of freedom.

    Through the regularized incomplete beta function,
    ``P(T > |t|) = I_{df / (df + t²)}(df / 2, 1 / 2) / 2``, evaluated by its continued
    fraction with accurate log-gamma differences. Relative accuracy in either tail: about
    1e-12 up to a thousand degrees of freedom, 1e-9 up to 1e7; above that a corrected
    normal approximation (as R's ``pt``) with absolute error below 1e-13. NaN gives NaN.

    Examples
    --------
    >>> from polars_roc._core.distributions import student_t_cdf
    >>> [round(float(v), 6) for v in student_t_cdf([-2.0, 0.0, 2.5], [3, 7.5, 40])]
    [0.069663, 0.5, 0.99169]
    """
    t_arr, df_arr = np.broadcast_arrays(
        np.asarray(t, dtype=np.float64), np.asarray(df, dtype=np.float64)
    )
    t_arr, df_arr = t_arr.astype(np.float64), df_arr.astype(np.float64)
    out = np.full(t_arr.shape, np.nan)
    ok = (df_arr > 0) & ~np.isnan(t_arr) & ~np.isnan(df_arr)
    big = ok & (df_arr > 1e7)
    # Corrected normal approximation for huge df (as R's pt): error O(1 / df²).
    tb, nb = t_arr[big], df_arr[big]
    scale = np.sqrt(2 * nb)
    with np.errstate(over="ignore", invalid="ignore"):
        corrected = np.where(
            np.abs(tb) > 1e100,
            np.sign(tb) * scale,
            tb / np.sqrt(1 + (tb / scale) ** 2),
        ) * (1 - 1 / (4 * nb))
    out[big] = normal_cdf(corrected)
    use = ok & ~big
    tt, nu = t_arr[use], df_arr[use]
    tail = _t_tail(tt, nu)
    out[use] = np.where(tt > 0, 1.0 - tail, tail)
    return out


def _student_t_log_pdf(t: FloatArray, df: FloatArray, log_beta: FloatArray) -> FloatArray:
    return np.asarray(
        -log_beta - 0.5 * np.log(df) - (df + 1.0) / 2.0 * _log1p_square(t, df),
        dtype=np.float64,
    )


def student_t_quantile(p: npt.ArrayLike, df: npt.ArrayLike) -> FloatArray:
    """
    Quantile function of Student's t with `df` (real, > 0) degrees of freedom.

    Newton's method on the log of the upper tail as a function of ``log t`` (nearly linear
    in both light and heavy tails), from a Cornish-Fisher start, safeguarded by bisection.

    Examples
    --------
    >>> from polars_roc._core.distributions import student_t_quantile
    >>> [round(float(v), 4) for v in student_t_quantile(0.975, [1, 4, 30])]
    [12.7062, 2.7764, 2.0423]
    """
    p_arr, df_arr = np.broadcast_arrays(
        np.asarray(p, dtype=np.float64), np.asarray(df, dtype=np.float64)
    )
    p_arr, df_arr = p_arr.astype(np.float64), df_arr.astype(np.float64)
    out = np.full(p_arr.shape, np.nan)
    ok = (df_arr > 0) & (p_arr > 0) & (p_arr < 1) & ~np.isnan(df_arr)
    out[ok & (p_arr == 0.5)] = 0.0
    solve = ok & (p_arr != 0.5)
    pp, nu = p_arr[solve], df_arr[solve]
    q = np.where(pp < 0.5, pp, 1.0 - pp)  # the upper tail probability to reach
    levels, which = np.unique(q, return_inverse=True)  # usually one probability for all
    z = -np.array([normal_quantile(float(v)) for v in levels], dtype=np.float64)[which]
    start = (
        z
        + (z**3 + z) / (4 * nu)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * nu**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * nu**3)
    )
    u = np.log(np.maximum(start, z))  # t's quantiles lie beyond the normal's
    huge = nu > 1e7  # invert the corrected normal approximation of student_t_cdf
    k = 1 - 1 / (4 * nu)
    with np.errstate(invalid="ignore"):
        u = np.where(huge, np.log(z / np.sqrt(k * k - z * z / (2 * nu))), u)
    lo, hi = np.full_like(u, -np.inf), np.full_like(u, np.inf)
    target = np.log(q)
    log_beta = _t_log_beta(nu)  # the same at every step: log-gammas are slow
    solved = u.copy()
    live = np.arange(u.size)  # entries still iterating; a converged one drops out
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        for _ in range(100):
            if live.size == 0:
                break
            t = np.exp(u)
            tail = _t_tail(t, nu, log_beta)
            gap = np.where(huge, 0.0, np.log(tail) - target)  # decreasing in u
            lo = np.where(gap > 0, np.maximum(lo, u), lo)
            hi = np.where(gap < 0, np.minimum(hi, u), hi)
            slope = -np.exp(_student_t_log_pdf(t, nu, log_beta) + u - np.log(tail))
            candidate = u - gap / slope
            inside = (candidate > lo) & (candidate < hi) & np.isfinite(candidate)
            # Bisect in log t; with one side still open, step out geometrically.
            middle = np.where(
                np.isinf(lo),
                hi - np.maximum(1.0, np.abs(hi)),
                np.where(np.isinf(hi), lo + np.maximum(1.0, np.abs(lo)), (lo + hi) / 2),
            )
            new = np.where(inside, candidate, middle)
            going = ~((np.abs(new - u) <= 1e-15 * np.maximum(1.0, np.abs(u))) | (gap == 0))
            solved[live] = new
            live, u, lo, hi = live[going], new[going], lo[going], hi[going]
            nu, target, huge, log_beta = nu[going], target[going], huge[going], log_beta[going]
    u = solved
    with np.errstate(over="ignore"):
        t = np.exp(u)
    out[solve] = np.where(pp < 0.5, -t, t)
    return out


def difference_test(alternative: str, level: float) -> pl.Expr:
    """p-value and interval of the difference from statistic, sd and df (numpy, vectorized)."""
    two_sided = alternative == "two-sided"
    p_quantile = (1 + level) / 2 if two_sided else level

    def compute(s: pl.Series) -> pl.Series:
        diff = s.struct.field("diff").to_numpy().astype(np.float64)
        sd = s.struct.field("_sd").to_numpy().astype(np.float64)
        stat = s.struct.field("statistic").to_numpy().astype(np.float64)
        dof = s.struct.field("df").to_numpy().astype(np.float64)
        paired = s.struct.field("paired").to_numpy().astype(bool)
        t_dist = ~paired & np.isfinite(dof) & (dof > 0)
        lower_tail = np.where(t_dist, student_t_cdf(stat, dof), normal_cdf(stat))
        upper_tail = np.where(
            t_dist, student_t_cdf(-stat, dof), normal_cdf(-stat)
        )  # symmetric distributions
        if two_sided:
            p = np.minimum(1.0, 2 * np.minimum(lower_tail, upper_tail))
        elif alternative == "greater":
            p = upper_tail
        else:
            p = lower_tail
        quantile = np.where(
            t_dist, student_t_quantile(p_quantile, dof), normal_quantile(p_quantile)
        )
        margin = np.where(sd == 0, 0.0, quantile * sd)
        lower = np.clip(diff - margin, -1.0, 1.0)
        upper = np.clip(diff + margin, -1.0, 1.0)
        # One-sided: the far end is the range's end, defined when the near end is.
        if alternative == "greater":
            upper = np.where(np.isnan(lower), np.nan, 1.0)
        elif alternative == "less":
            lower = np.where(np.isnan(upper), np.nan, -1.0)
        out = pl.DataFrame({"p_value": p, "diff_lower": lower, "diff_upper": upper}).fill_nan(None)
        return out.to_struct(s.name)

    dtype = pl.Struct({"p_value": pl.Float64, "diff_lower": pl.Float64, "diff_upper": pl.Float64})
    inputs = pl.struct("diff", "_sd", "statistic", "df", "paired")
    return inputs.map_batches(compute, return_dtype=dtype, is_elementwise=True)


def beta_cdf(x: npt.ArrayLike, a: npt.ArrayLike, b: npt.ArrayLike) -> FloatArray:
    """
    The beta distribution function ``I_x(a, b)`` (regularized incomplete beta), vectorized.

    Examples
    --------
    >>> from polars_roc._core.distributions import beta_cdf
    >>> round(float(beta_cdf(0.3, 2.0, 5.0)), 6)
    0.579825
    """
    xs, av, bv = np.broadcast_arrays(*(np.asarray(v, dtype=np.float64) for v in (x, a, b)))
    xv: FloatArray = np.clip(xs, 0.0, 1.0)
    yv: FloatArray = 1.0 - xv
    with np.errstate(divide="ignore"):
        log_x, log_y = np.log(xv), np.log1p(-xv)
    return _betainc(av, bv, xv, yv, log_x, log_y, _lbeta(av, bv))


def _distinct(*columns: FloatArray) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """Row indices of the distinct tuples of `columns`, and each row's tuple among them."""
    order = np.lexsort(columns[::-1])
    starts = np.ones(order.size, dtype=bool)
    for column in columns:
        ordered = column[order]
        starts[1:] &= ordered[1:] == ordered[:-1]
    starts[1:] = ~starts[1:]  # a row starts a tuple unless it equals the row before
    which = np.empty(order.size, dtype=np.intp)
    which[order] = np.cumsum(starts) - 1
    return order[starts], which


def beta_quantile(p: npt.ArrayLike, a: npt.ArrayLike, b: npt.ArrayLike) -> FloatArray:
    """
    The beta distribution's quantile: safeguarded Newton steps on :func:`beta_cdf`.

    Each distinct ``(p, a, b)`` is solved once, all at the same time. An upper quantile
    (``p > 1/2``) is solved as the lower one of the mirrored distribution,
    ``1 - B⁻¹(1 - p; b, a)``, so every root lies in a lower tail, where ``log I_x(a, b)``
    is nearly linear in ``log x`` (``I_x ≈ x^a / (a B(a, b))`` near 0): Newton's method on
    that pair of logs converges in a few steps. Each entry keeps a bracket around its root
    and bisects (geometrically) where a step would leave it, so it converges from any
    start. An entry stops once a step inside its bracket moves ``log x`` by at most
    ``1e-11`` (the next step would be of the order of its square, below the rounding of the
    distribution function) or once its bracket is a few ulps wide. No Python call per entry.

    Examples
    --------
    >>> from polars_roc._core.distributions import beta_quantile
    >>> round(float(beta_quantile(0.579825, 2.0, 5.0)), 5)
    0.3
    """
    arrays = np.broadcast_arrays(*(np.asarray(v, dtype=np.float64) for v in (p, a, b)))
    shape = arrays[0].shape
    p_all, a_all, b_all = (np.atleast_1d(v).ravel().astype(np.float64) for v in arrays)
    first, which = _distinct(p_all, a_all, b_all)
    p, a, b = p_all[first], a_all[first], b_all[first]
    mirror = p > 0.5
    p, a, b = np.where(mirror, 1.0 - p, p), np.where(mirror, b, a), np.where(mirror, a, b)
    lb = _lbeta(a, b)
    total = a + b
    levels, level_of = np.unique(np.clip(p, 1e-300, 0.5), return_inverse=True)
    shift = normal_quantiles(levels)[level_of] if levels.size else levels  # one call per p
    normal = a / total + shift * np.sqrt(a * b / (total * total * (total + 1)))
    with np.errstate(all="ignore"):
        # Start from the larger of two guesses below the mean: the point where the leading
        # term of the lower tail reaches p (right for small a), and the normal quantile.
        u = np.minimum((np.log(p) + np.log(a) + lb) / a, np.log(a / total))
        u = np.where(normal > 0, np.maximum(u, np.log(normal)), u)
        lo, hi = np.full(p.shape, -np.inf), np.zeros(p.shape)  # the bracket of log x
        target = np.log(p)
        solved = u.copy()
        live = np.arange(p.size)  # the entries still iterating
        aa, ba, lba, flip = a, b, lb, mirror
        for _ in range(400):
            if live.size == 0:
                break
            y = -np.expm1(u)  # 1 - x to the last digit, even where x rounds to 1
            log_y = np.log(y)
            cdf = _betainc(aa, ba, np.exp(u), y, u, log_y, lba)
            gap = np.log(cdf) - target  # increasing in u
            lo = np.where(gap < 0, np.maximum(lo, u), lo)
            hi = np.where(gap > 0, np.minimum(hi, u), hi)
            slope = np.exp(aa * u + (ba - 1) * log_y - lba - np.log(cdf))  # d log I / d log x
            newton = u - gap / slope
            inside = np.isfinite(newton) & (newton > lo) & (newton < hi)
            middle = np.where(np.isinf(lo), hi - np.maximum(1.0, np.abs(hi)), (lo + hi) / 2)
            # A mirrored root is 1 - x: its digits are those of u, relatively.
            scale = np.where(flip, np.abs(u), np.maximum(1.0, np.abs(u)))
            close = np.abs(newton - u) <= 1e-11 * scale  # NaN: not close
            new = np.where(gap == 0, u, np.where(inside | close, newton, middle))
            solved[live] = new
            settled = close | (gap == 0) | np.isnan(gap)
            settled |= (hi - lo) <= 4e-16 * np.where(flip, np.abs(hi), np.maximum(1.0, np.abs(hi)))
            going = ~settled
            live, u, lo, hi = live[going], new[going], lo[going], hi[going]
            aa, ba, lba, target = aa[going], ba[going], lba[going], target[going]
            flip = flip[going]
        solved = np.minimum(solved, 0.0)
        root = np.where(mirror, -np.expm1(solved), np.exp(solved))  # 1 - y, to the last digit
    root = np.where(p == 0, np.where(mirror, 1.0, 0.0), root)
    return np.asarray(root[which], dtype=np.float64).reshape(shape)


def _gamma_series(a: FloatArray, z: FloatArray) -> FloatArray:
    """``Σ z^n / (a (a + 1) ... (a + n))``: the lower incomplete gamma's series (z < a + 1)."""
    term = 1.0 / a
    total = term.copy()
    for n in range(1, 10_000):
        term = term * z / (a + n)
        total = total + term
        if np.all(np.abs(term) <= np.abs(total) * 1e-17):
            break
    return np.asarray(total, dtype=np.float64)


def _gamma_fraction(a: FloatArray, z: FloatArray) -> FloatArray:
    """The upper incomplete gamma's continued fraction (modified Lentz; z >= a + 1)."""
    tiny = 1e-300
    b = z + 1.0 - a
    c = np.full_like(z, 1.0 / tiny)
    d = 1.0 / b
    h = d.copy()
    for i in range(1, 10_000):
        an = -i * (i - a)
        b = b + 2.0
        d = an * d + b
        d = np.where(np.abs(d) < tiny, tiny, d)
        c = b + an / c
        c = np.where(np.abs(c) < tiny, tiny, c)
        d = 1.0 / d
        step = d * c
        h = h * step
        if np.all(np.abs(step - 1.0) <= 1e-16):
            break
    return np.asarray(h, dtype=np.float64)


def chi2_sf(x: npt.ArrayLike, df: npt.ArrayLike) -> FloatArray:
    """
    Upper tail ``P(X >= x)`` of the chi-square distribution with `df` degrees of freedom.

    The regularized upper incomplete gamma ``Q(df / 2, x / 2)``: its series below
    ``x / 2 < df / 2 + 1``, its continued fraction above (Numerical Recipes' ``gser`` /
    ``gcf``). NaN where `df` is not positive or `x` is NaN; 1 at ``x <= 0``.

    Examples
    --------
    >>> [round(float(v), 6) for v in chi2_sf([3.841459, 0.0, 10.0], [1, 4, 4])]
    [0.05, 1.0, 0.040428]
    """
    xs, ks = np.broadcast_arrays(np.asarray(x, dtype=np.float64), np.asarray(df, dtype=np.float64))
    xs, ks = xs.ravel(), ks.ravel()
    out = np.full(xs.shape, np.nan)
    ok = np.isfinite(xs) & np.isfinite(ks) & (ks > 0)
    out[ok & (xs <= 0)] = 1.0
    live = ok & (xs > 0)
    a, z = ks[live] / 2.0, xs[live] / 2.0
    front = np.exp(-z + a * np.log(z) - _lgamma(a)) if len(a) else a
    low = z < a + 1.0
    value = np.empty(a.shape)
    if low.any():
        value[low] = 1.0 - front[low] * _gamma_series(a[low], z[low])
    if (~low).any():
        value[~low] = front[~low] * _gamma_fraction(a[~low], z[~low])
    out[live] = np.clip(value, 0.0, 1.0)
    return out.reshape(np.broadcast(np.asarray(x), np.asarray(df)).shape)

"""The private floor of polars_roc: single-topic building blocks that import nothing public.

Layers, from the bottom: ``validate`` and ``labels`` (argument checks, row coding),
``groups`` (per-group windows, ids, end rows, the aggregate-and-join idiom), ``kernels``
(coded rows, class totals, the AUC kernel, segment areas), ``counts`` (the order-free tally
and the ordered accumulation), ``schemes`` (threshold schemes), ``distributions``,
``delong`` and ``convex`` (the hull kernel). Everything public is built on these.
"""

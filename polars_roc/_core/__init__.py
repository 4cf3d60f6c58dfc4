"""The private floor of polars_roc: single-topic building blocks that import nothing public.

Layers, from the bottom: ``validate`` and ``labels`` (argument checks, row coding),
``groups`` (per-group windows, ids, end rows, the aggregate-and-join idiom), ``kernels``
(coded rows, class totals, the AUC kernel, segment areas), ``counts`` (the order-free tally
and the ordered accumulation), ``schemes`` (threshold schemes), ``distributions``,
``delong``, ``binormal`` (Obuchowski's binormal variances for power) and ``convex`` (the
hull kernel), ``objectives`` (the one optimal threshold of ``best_threshold``, ``ks`` and
the charts, with its numpy twin) and ``columns`` (every analysis's output columns, read by
the charts and the report). Everything public is built on these.
"""

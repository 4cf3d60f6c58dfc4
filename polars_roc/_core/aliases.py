"""Old keyword names kept for one release: they still work and warn, naming the new one."""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Any, TypeVar, cast

F = TypeVar("F", bound=Callable[..., Any])


def renamed(**aliases: str) -> Callable[[F], F]:
    """
    Accept each old keyword (``across=``) for its new name (``model=``), with a warning.

    The old keyword is not in the signature; passing both is a TypeError. The wrapper keeps
    the map in ``__deprecated_aliases__`` (old -> new) for the signature tests.

    Examples
    --------
    >>> import warnings
    >>> @renamed(across="model")
    ... def f(*, model: str = "model") -> str:
    ...     return model
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     f(across="clf")
    ...     print(caught[0].message)
    'clf'
    f(across=...) is deprecated: use model= (same meaning); across= goes in the next release
    """

    def decorate(function: F) -> F:
        @functools.wraps(function)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            for old, new in aliases.items():
                if old not in kwargs:
                    continue
                name = function.__name__
                if new in kwargs:
                    msg = f"{name}() got both {old}= and {new}=: pass {new}= only"
                    raise TypeError(msg)
                warnings.warn(
                    f"{name}({old}=...) is deprecated: use {new}= (same meaning); "
                    f"{old}= goes in the next release",
                    DeprecationWarning,
                    stacklevel=2,
                )
                kwargs[new] = kwargs.pop(old)
            return function(*args, **kwargs)

        wrapper.__deprecated_aliases__ = dict(aliases)  # type: ignore[attr-defined]
        return cast(F, wrapper)

    return decorate

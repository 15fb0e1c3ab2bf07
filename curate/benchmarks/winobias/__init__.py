"""WinoBias (Zhao et al. 2018) as a curate benchmark: see :mod:`.benchmark`.

* :mod:`.io` pairs line i of a pro file with line i of its anti file (the pro sentence is
  ``sent_more``; ``bias_type`` is the subset, ``type1-dev`` ..., so every per-bias-type
  breakdown is per type and split), and writes the files back;
* :mod:`.rules` the WinoBias rules (family ``B``); :mod:`.occupations` the occupation lists;
* :mod:`.metrics` the metric per type (dev + test) and per type and split;
* the files are pinned in ``data/raw/sources.toml`` (``winobias-*``, into ``data/raw/winobias/``).
"""

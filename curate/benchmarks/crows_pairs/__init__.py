"""CrowS-Pairs (Nangia et al. 2020): minimal sentence pairs that swap a social group.

:mod:`.columns` is its column table (imported by the record module, so it imports nothing of
curate); :mod:`.benchmark` declares the benchmark. Nothing is imported here, so that loading the
column table never loads the readers.
"""

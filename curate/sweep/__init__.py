"""``curate sweep``: many models x methods x dataset versions, locally or on a Ray cluster.

:mod:`~curate.sweep.plan` reads and checks the plan file, :mod:`~curate.sweep.jobs` defines the
jobs and what a worker runs, :mod:`~curate.sweep.executors` where it runs (``local`` by
default; :mod:`~curate.sweep.ray_executor` only when ``--engine ray`` asks for it, so the base
install never imports ray), and :mod:`~curate.sweep.run` is the driver that stores the cache
rows and writes the files.

Layer: above release, the registry and every stage; below the commands. It never imports the
CLI.
"""

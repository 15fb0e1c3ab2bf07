"""Push a built release to a Hugging Face Hub dataset repository.

The folder is uploaded as it is: its card's YAML header already declares the files and features
``datasets.load_dataset`` needs, so the hub repo loads like the local folder. The release is
checked against its ``SHA256SUMS`` first (a hand-edited release is never pushed), and the
version becomes a tag of the repo, so users can pin it (``revision="1.0.0-auto"``).

The token is huggingface_hub's own business: ``HF_TOKEN`` or the token ``hf auth login``
stored. curate never reads, prints or logs it. A dry run lists what would be uploaded without
touching the network, which is how this is tested here (no hub is reachable from CI).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from curate.errors import CurateError, UsageError
from curate.fileio import sha256_file


class HubError(CurateError):
    """The hub refused or could not be reached; the message says which and why."""


@dataclass(frozen=True)
class Upload:
    """One file of the release as it would be uploaded: path in the repo, size and SHA-256."""

    path: str
    bytes: int
    sha256: str


def check_repo_id(repo_id: str) -> str:
    """``repo_id`` if it is a valid hub repository id (``user/name``), else a usage error."""
    from huggingface_hub.errors import HFValidationError
    from huggingface_hub.utils import validate_repo_id

    try:
        validate_repo_id(repo_id)
    except HFValidationError:
        raise UsageError(
            f"--push-to-hub {repo_id!r} is not a hub repository id; expected USER/NAME or ORG/NAME"
        ) from None
    if "/" not in repo_id:
        raise UsageError(f"--push-to-hub {repo_id!r}: give the owner too, as USER/NAME or ORG/NAME")
    return repo_id


def planned_uploads(dist: Path, files: list[str]) -> list[Upload]:
    """The release files (as listed by the build) with their sizes and checksums."""
    return [
        Upload(name, (dist / name).stat().st_size, sha256_file(dist / name)) for name in sorted(files)
    ]


def _transport_errors() -> tuple[type[BaseException], ...]:
    """Connection-error classes of the HTTP clients huggingface_hub may use (``httpx2`` in
    huggingface_hub 2.x, ``httpx`` before): the importable ones."""
    import importlib

    found: list[type[BaseException]] = []
    for name in ("httpx2", "httpx"):
        try:
            found.append(importlib.import_module(name).TransportError)
        except (ImportError, AttributeError):
            continue
    return tuple(found)


def push(dist: Path, repo_id: str, version: str, files: list[str]) -> str:
    """Upload ``files`` of ``dist`` to the dataset repo ``repo_id`` and tag it ``version``;
    return the URL of the commit."""
    from huggingface_hub import HfApi
    from huggingface_hub.errors import HfHubHTTPError, LocalTokenNotFoundError

    api = HfApi()
    try:
        api.create_repo(repo_id, repo_type="dataset", exist_ok=True)
        commit = api.upload_folder(
            repo_id=repo_id,
            folder_path=dist,
            repo_type="dataset",
            allow_patterns=sorted(files),
            commit_message=f"curate release {version}",
        )
        api.create_tag(repo_id, tag=version, repo_type="dataset", exist_ok=True)
    except LocalTokenNotFoundError:
        raise HubError(
            "no Hugging Face token: set HF_TOKEN or run `hf auth login`, then push again"
        ) from None
    except HfHubHTTPError as exc:
        status = exc.response.status_code if exc.response is not None else "no response"
        raise HubError(f"the hub refused the push to {repo_id} (HTTP {status})") from None
    except (*_transport_errors(), OSError) as exc:  # no route, DNS, timeouts
        raise HubError(f"the hub could not be reached to push {repo_id} ({exc.__class__.__name__})") from None
    return str(commit.commit_url)

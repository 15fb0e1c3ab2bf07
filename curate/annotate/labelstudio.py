"""A thin client for the Label Studio server, built on the official SDK.

Everything the annotation commands need from the server goes through :class:`LabelStudioClient`:
find or create the round's project, list its tasks, import tasks, export annotations. Every
failure becomes one :class:`LabelStudioError` sentence (server unreachable, timeout, key
rejected, project missing) instead of an SDK traceback.

Why an explicit httpx client: the SDK's default client has no keep-alive limit and a 60 s
timeout; against Label Studio's development server keep-alive costs ~45 ms per request here, so
keep-alive is off (``max_keepalive_connections=0``) and the timeout is ours to choose.

Both kinds of API key work: a legacy token (a 40-character hex string, sent as ``Token ...``)
and a personal access token (a JWT refresh token the SDK exchanges for short-lived access
tokens). The key is never printed, logged or written: error messages are built from the URL,
the status code and the server's ``detail``, and scrubbed of the key all the same.
"""

from __future__ import annotations

import contextlib
import json
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from label_studio_sdk.core.api_error import ApiError

from curate.errors import CurateError, UsageError

URL_ENV = "LABEL_STUDIO_URL"
KEY_ENV = "LABEL_STUDIO_API_KEY"
DEFAULT_TIMEOUT = 30.0
#: Tasks per import request: well under Label Studio's limits, small enough to time out rarely.
IMPORT_BATCH = 500


class LabelStudioError(CurateError):
    """The Label Studio server could not be reached or refused a request."""


@dataclass(frozen=True)
class Project:
    """A Label Studio project: its id and title, and whether this run created it."""

    id: int
    title: str
    created: bool = False
    label_config: str = field(default="", repr=False)


def check_url(url: str | None) -> str:
    """The server URL without a trailing slash; a clear error when it is missing or not http(s)."""
    if not url:
        raise UsageError(f"no Label Studio URL: set ${URL_ENV} or pass --url")
    try:
        import httpx  # imported when used: the CLI starts faster without it

        parsed = httpx.URL(url)
    except (httpx.InvalidURL, TypeError):
        raise UsageError(f"{url!r} is not a valid Label Studio URL") from None
    if parsed.scheme not in ("http", "https") or not parsed.host:
        raise UsageError(f"{url!r} is not a valid Label Studio URL; expected http(s)://host[:port]")
    return url.rstrip("/")


def _detail(body: Any) -> str:
    """The server's short explanation of an error response, if it gave one."""
    if isinstance(body, dict):
        detail = body.get("detail") or body.get("message") or ""
        errors = body.get("validation_errors")
        if errors:
            detail = f"{detail}: {json.dumps(errors, ensure_ascii=False)}"
        return str(detail)[:300]
    if isinstance(body, str):
        text = " ".join(body.split())
        return "" if text.startswith("<") else text[:300]
    return ""


class LabelStudioClient:
    """A connection to one Label Studio server with one API key."""

    def __init__(
        self,
        url: str | None,
        api_key: str | None,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = 2,
    ) -> None:
        self.url = check_url(url)
        if not api_key or not api_key.strip():
            raise UsageError(f"no Label Studio API key: set ${KEY_ENV} or pass --api-key")
        if timeout <= 0:
            raise UsageError(f"--timeout must be positive, got {timeout:g}")
        self.timeout = timeout
        self._redact = api_key.strip()
        import httpx

        self._http = httpx.Client(
            timeout=httpx.Timeout(timeout),
            limits=httpx.Limits(max_keepalive_connections=0),
            follow_redirects=True,
        )
        # The SDK takes ~1 s to import; only commands that talk to a server pay for it.
        from label_studio_sdk.client import LabelStudio

        with self._errors("reading the API key"):
            # The trailing slash keeps a path prefix (https://host/ls/) when the SDK urljoins the
            # token-refresh endpoint for personal access tokens.
            self._sdk = LabelStudio(
                base_url=self.url + "/",
                api_key=api_key.strip(),
                httpx_client=self._http,
                timeout=timeout,
                max_retries=max_retries,
            )

    def __repr__(self) -> str:
        return f"LabelStudioClient(url={self.url!r}, timeout={self.timeout:g})"

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> LabelStudioClient:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- error mapping ---------------------------------------------------------------------------

    def _fail(self, message: str) -> LabelStudioError:
        return LabelStudioError(message.replace(self._redact, "***") if self._redact else message)

    @contextlib.contextmanager
    def _errors(self, doing: str, not_found: str | None = None) -> Iterator[None]:
        """Turn SDK and transport exceptions raised while ``doing`` into one clear sentence.

        ``not_found`` is the sentence for a 404 answer (e.g. "project 7 does not exist").
        """
        import httpx
        from label_studio_sdk.core.api_error import ApiError

        where = f"Label Studio at {self.url}"
        try:
            yield
        except ApiError as exc:
            if exc.status_code == 404 and not_found:
                raise self._fail(not_found) from None
            raise self._api_error(exc, doing) from None
        except httpx.TimeoutException:
            raise self._fail(
                f"{where} did not answer within {self.timeout:g} s while {doing}; "
                "check that the server is healthy or raise --timeout"
            ) from None
        except httpx.ConnectError:
            raise self._fail(
                f"cannot reach {where} while {doing} (connection failed); is the server running "
                f"and ${URL_ENV} (or --url) right?"
            ) from None
        except httpx.HTTPError as exc:
            raise self._fail(
                f"cannot talk to {where} while {doing} ({type(exc).__name__})"
            ) from None
        except json.JSONDecodeError:
            raise self._fail(
                f"{where} sent a reply that is not JSON while {doing}; is this a Label Studio server?"
            ) from None

    def _api_error(self, exc: ApiError, doing: str) -> LabelStudioError:
        where = f"Label Studio at {self.url}"
        status = exc.status_code
        detail = _detail(exc.body)
        suffix = f" ({detail})" if detail else ""
        if status == 401:
            return self._fail(
                f"{where} rejected the API key while {doing} (401 Unauthorized{': ' + detail if detail else ''}); "
                f"check ${KEY_ENV}: a legacy token or a personal access token of that server"
            )
        if status == 403:
            return self._fail(
                f"{where} refused {doing} (403 Forbidden){suffix}; the key's user lacks permission"
            )
        if status is not None and 200 <= status < 300:
            return self._fail(
                f"{where} sent a reply that is not JSON while {doing}; is this a Label Studio server?"
            )
        return self._fail(f"{where} answered {status} while {doing}{suffix}")

    # -- requests --------------------------------------------------------------------------------

    def whoami(self) -> str:
        """The email of the key's user: a cheap request that checks URL and key first."""
        with self._errors("checking the API key"):
            return str(self._sdk.users.whoami().email or "")

    def find_projects(self, title: str) -> list[Project]:
        """Projects whose title is exactly ``title``, by id."""
        with self._errors(f"looking for project {title!r}"):
            found = [
                Project(int(p.id), str(p.title))
                for p in self._sdk.projects.list(title=title, page_size=100)
                if p.title == title and p.id is not None
            ]
        return sorted(found, key=lambda p: p.id)

    def project_by_id(self, project_id: int) -> Project:
        """Project ``project_id``; a clear error when it does not exist."""
        missing = f"project {project_id} does not exist on Label Studio at {self.url}"
        with self._errors(f"reading project {project_id}", not_found=missing):
            project = self._sdk.projects.get(project_id)
        return Project(
            int(project_id), str(project.title or ""), label_config=project.label_config or ""
        )

    def resolve_project(self, title: str, project_id: int | None = None) -> Project:
        """The project named by id, or else the one titled ``title``; an error when missing."""
        if project_id is not None:
            return self.project_by_id(project_id)
        found = self.find_projects(title)
        if not found:
            raise self._fail(
                f"no project titled {title!r} on Label Studio at {self.url}; push the round "
                "first or pass --project-title / --project-id"
            )
        if len(found) > 1:
            ids = ", ".join(str(p.id) for p in found)
            raise self._fail(
                f"{len(found)} projects are titled {title!r} on Label Studio at {self.url} "
                f"(ids {ids}); pass --project-id"
            )
        return self.project_by_id(found[0].id)

    def ensure_project(
        self,
        title: str,
        label_config: str,
        overlap: int,
        description: str = "",
        project_id: int | None = None,
    ) -> Project:
        """The project titled ``title`` (or ``project_id``), created with our form if missing."""
        if project_id is not None:
            return self.project_by_id(project_id)
        found = self.find_projects(title)
        if len(found) > 1:
            ids = ", ".join(str(p.id) for p in found)
            raise self._fail(
                f"{len(found)} projects are titled {title!r} on Label Studio at {self.url} "
                f"(ids {ids}); pass --project-id"
            )
        if found:
            return self.project_by_id(found[0].id)
        with self._errors(f"creating project {title!r}"):
            created = self._sdk.projects.create(
                title=title,
                description=description,
                label_config=label_config,
                maximum_annotations=overlap,
                show_skip_button=True,
                show_instruction=False,
            )
        return Project(int(created.id), title, created=True, label_config=label_config)

    def tasks_by_pair(self, project_id: int) -> tuple[dict[int, list[int]], list[int]]:
        """Task ids of the project by pair id, and the ids of tasks that carry no pair id.

        Label Studio does not deduplicate imports; this listing is what makes a push idempotent.
        """
        from curate.annotate.tasks import task_pair_id

        by_pair: dict[int, list[int]] = defaultdict(list)
        foreign: list[int] = []
        missing = f"project {project_id} does not exist on Label Studio at {self.url}"
        with self._errors(f"listing the tasks of project {project_id}", not_found=missing):
            for task in self._sdk.tasks.list(project=project_id, fields="task_only", page_size=500):
                pair_id = task_pair_id(task.data)
                if pair_id is None:
                    foreign.append(int(task.id))
                else:
                    by_pair[pair_id].append(int(task.id))
        return {k: sorted(v) for k, v in sorted(by_pair.items())}, sorted(foreign)

    def import_tasks(self, project_id: int, tasks: Sequence[dict[str, Any]]) -> list[int]:
        """Import ``tasks`` into the project in batches; the new task ids."""
        ids: list[int] = []
        for start in range(0, len(tasks), IMPORT_BATCH):
            batch = list(tasks[start : start + IMPORT_BATCH])
            with self._errors(f"importing {len(batch)} tasks into project {project_id}"):
                response = self._sdk.projects.import_tasks(
                    project_id, request=batch, return_task_ids=True
                )
            if response.task_count is not None and response.task_count != len(batch):
                raise self._fail(
                    f"Label Studio at {self.url} imported {response.task_count} of {len(batch)} "
                    f"tasks into project {project_id}"
                )
            ids.extend(int(i) for i in response.task_ids or [])
        return ids

    def export(self, project_id: int) -> list[Any]:
        """All tasks of the project with their annotations: Label Studio's JSON export."""
        missing = f"project {project_id} does not exist on Label Studio at {self.url}"
        with self._errors(f"exporting project {project_id}", not_found=missing):
            raw = self._sdk.projects.exports.as_binary(project_id, export_type="JSON")
        from curate.jsonl import loads_document

        try:
            value = loads_document(raw.decode("utf-8") if isinstance(raw, bytes) else raw)
        except (ValueError, UnicodeDecodeError):
            raise self._fail(
                f"the export of project {project_id} from Label Studio at {self.url} is not JSON"
            ) from None
        if not isinstance(value, list):
            raise self._fail(
                f"the export of project {project_id} from Label Studio at {self.url} is not a "
                "list of tasks"
            )
        return value

"""Live source: list, then watch, each resource of the lesson namespace with the official client.

One thread per resource runs the reflector loop client-go uses: list (raw JSON) → watch from the
list's resourceVersion with bookmarks, a server timeout and a client read timeout → on 410 Gone
relist; on connection errors back off 1→2→4…30 s. Events go to `emit` as ObjectEvent/Relisted/
SourceState; the consumer applies them to the store on its own thread.

A watch can go silent and stay open (a proxy or a server that stops sending without closing):
the client's read timeout would notice only after READ_TIMEOUT. `run_watchdog` asks the API
server every CHECK_EVERY seconds for one object of each resource (a list with limit=1, which
also says how many there are); when its answer disagrees with what the source has passed on
(how many objects, or the first one's resourceVersion) and the watch has heard nothing since the
last check, the watch is dropped and the resource listed again, and the header says so
meanwhile (reconnecting).

Why not `Watch.stream(..., deserialize=False)`: in client 37 an ERROR event in that mode is read
as event['raw_object'], which only the deserialising path sets, so a 410 raises KeyError instead
of being recoverable. We reuse the client's API calls and its line splitter instead.
Every call here is a read (list/watch); the tutor never writes to the cluster.
"""

from __future__ import annotations

import heapq
import socket
import threading
import time
from dataclasses import replace
from functools import partial
from typing import Any, Callable

from tutor.cluster import kinds, objects as o
from tutor.cluster import store as store_module
from tutor.cluster.wire import decode
from tutor.cluster.source_events import Conn, ObjectEvent, Relisted, SourceState
from tutor.cluster.failure import describe, silent_watch
from tutor.cluster.held import Held
from tutor.cluster.kinds import DEFAULT, Kind
from tutor.cluster.objects import Obj

WATCH_SECONDS = 240  # server-side timeout: the server ends the watch, we resume from the last RV
READ_TIMEOUT = WATCH_SECONDS + 30  # client socket timeout: a dead connection cannot hang us
CONNECT_TIMEOUT = 5
PAGE = 500
MAX_BACKOFF = 30.0
CHECK_EVERY = 15.0  # seconds between the watchdog's looks: one tiny list per resource


class Gone(Exception):
    """410: the resourceVersion we hold was compacted away; relist."""


# A watched resource is a row of the kinds table (tutor/cluster/kinds.py): its name (the
# plural), kind, apiVersion and scope are all the source needs besides the call below.
Resource = Kind
# The kubernetes client's ApiClient, only handed to the client's own calls (as connect.Connection keeps it).
ApiClient = object
Emit = Callable[[Any], object]  # where the source hands what it read (ObjectEvent, Relisted, SourceState)
# The API server's answer to a peek: how many objects (None: not said), the first one's key, its resourceVersion
Said = tuple[int | None, tuple[str, str] | None, str]


def list_call(api_client: ApiClient, res: Resource) -> Callable[..., Any]:
    """The client's list call for one kind (with watch=True, its watch): the typed call where the
    table names one, else CustomObjectsApi's with the row's group, version and plural, which
    serves any kind outside the core group. Only lists: the tutor never writes."""
    from kubernetes import client

    if res.typed:
        api, method = res.typed
        if not method.startswith("list_"):  # the table can only name reads
            raise ValueError(f"{res.kind}: {method} is not a list call")
        call: Callable[..., Any] = getattr(getattr(client, api)(api_client), method)
        return call
    custom = client.CustomObjectsApi(api_client)
    if res.namespaced:
        return partial(_namespaced, custom.list_namespaced_custom_object, res)
    return partial(custom.list_cluster_custom_object, res.group, res.version, res.plural)


def _namespaced(call: Callable[..., Any], res: Resource, namespace: str, **kw: Any) -> Any:
    return call(res.group, res.version, namespace, res.plural, **kw)


# What a lesson that names no kinds watches (every kind not marked optional).
RESOURCES = DEFAULT


def _abort(resp: object) -> None:
    """Unblocks a thread waiting in a watch read. resp.close() would wait for the reader's own
    buffer lock; shutting the socket down makes the blocked recv return at once."""
    conn = getattr(resp, "connection", None) or getattr(resp, "_connection", None)
    sock = getattr(conn, "sock", None)
    try:
        if sock is not None:
            sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass


def classify(exc: BaseException, res: Resource, server: str = "") -> SourceState:
    """Maps an error to the state the UI shows, a short reason and the failure in both languages."""
    failure = describe(exc, server)
    if failure.status == 403:
        return SourceState(res.name, Conn.FORBIDDEN, f"no permission to list/watch {res.name}", failure=failure)
    if failure.status == 404 and res.may_be_absent:  # no CRD, or its group not served
        return SourceState(res.name, Conn.CRD_MISSING, res.absent_brief(), failure=failure)
    return SourceState(res.name, Conn.RECONNECTING, failure.detail, failure=failure)


def server_of(api_client: ApiClient) -> str:
    return str(getattr(getattr(api_client, "configuration", None), "host", "") or "")


def kept_from_a_list(res: Resource) -> int | None:
    """How many objects of a list the store keeps (None: all). Events: the newest MAX_EVENTS of
    the namespace (tutor/cluster/store.py); a namespace keeps about an hour of them, and a list
    read whole before the store cut it grew the tutor with the namespace's history."""
    return store_module.MAX_EVENTS if res.kind == kinds.EVENT.kind else None


def _newest_order(ev: Obj) -> tuple[int, str]:
    """The order "newest" means for a listed Event: the order the cluster wrote them in, as the
    events pane orders them (objects.event_order)."""
    return o.event_order(ev)


def list_once(api_client: ApiClient, res: Resource, namespace: str,
              held: Held | None = None) -> tuple[list[Obj], str]:
    """Lists every object (paged), as raw dicts with kind/apiVersion filled in, and the list's
    resourceVersion (a watch starts from it). Of a kind the store keeps only the newest few of
    (kept_from_a_list: Events), only those are kept while paging, so the list never holds more
    than that many and one page: the newest by _newest_order, returned oldest first, as the store
    takes them (what it applies last is its newest). `held`, when given, is told every object's
    key and resourceVersion, kept or not: the watchdog compares the count and the first object
    with the API server's (it keeps as few of them as the store keeps: tutor/cluster/held.py)."""
    fn = list_call(api_client, res)
    args = (namespace,) if res.namespaced else ()
    keep = kept_from_a_list(res)
    items: list[Any] = []  # every object, or a heap of (order, position, object) of the newest `keep`
    seq = 0
    cont = None
    while True:
        kw: dict[str, Any] = {"limit": PAGE, "_preload_content": False,
              "_request_timeout": (CONNECT_TIMEOUT, READ_TIMEOUT)}
        if cont:
            kw["_continue"] = cont
        resp = fn(*args, **kw)
        body = decode(resp.data)
        del resp  # its bytes: one page at a time
        for item in body.get("items") or []:
            if held is not None:
                held.listed(_key(item), o.resource_version(item))
            if keep is None:
                items.append(_as_listed(item, res))
                continue
            seq += 1
            entry = (_newest_order(item), seq, item)
            if len(items) < keep:
                heapq.heappush(items, entry)
            elif keep and entry[:2] > items[0][:2]:
                heapq.heapreplace(items, entry)  # the oldest kept goes
            else:
                continue
            _as_listed(item, res)
        meta = body.get("metadata") or {}
        body = None  # the page's objects not kept go with it
        cont = meta.get("continue")
        if not cont:
            if keep is not None:
                items = [entry[2] for entry in sorted(items, key=lambda e: e[:2])]
            return items, str(meta.get("resourceVersion") or "")


def _as_listed(item: Obj, res: Resource) -> Obj:
    o.drop_managed_fields(item)
    item.setdefault("kind", res.kind)
    item.setdefault("apiVersion", res.api_version)
    return item


def _key(obj: Obj) -> tuple[str, str]:
    return (o.namespace(obj), o.name(obj))


def peek(api_client: ApiClient, res: Resource, namespace: str) -> Said:
    """How many objects the API server holds (None when it does not say), and its first one
    (key, resourceVersion): one object on the wire, whatever the count."""
    fn = list_call(api_client, res)
    args = (namespace,) if res.namespaced else ()
    resp = fn(*args, limit=1, _preload_content=False, _request_timeout=(CONNECT_TIMEOUT, CONNECT_TIMEOUT * 2))
    body = decode(resp.data)
    items = body.get("items") or []
    meta = body.get("metadata") or {}
    more = meta.get("remainingItemCount")
    count = None if more is None and meta.get("continue") else len(items) + (more or 0)
    if not items:
        return count, None, ""
    return count, _key(items[0]), o.resource_version(items[0])


def list_all(api_client: ApiClient, namespace: str, emit: Emit, resources: tuple[Resource, ...] = RESOURCES,
             t: float = 0.0) -> None:
    """One snapshot of everything (for `lwstutor check`); per-resource failures become states.
    A server that cannot be reached at all is not asked again for each resource: each would
    wait out the same timeout."""
    unreachable = None
    for res in resources:
        if unreachable is not None:
            emit(replace(unreachable, resource=res.name, t=t))
            continue
        try:
            items, _ = list_once(api_client, res, namespace)
        except Exception as exc:  # noqa: BLE001 - reported as the resource's state
            failed = replace(classify(exc, res, server_of(api_client)), t=t)
            failure = failed.failure  # classify always gives one
            if failed.state is Conn.RECONNECTING and failure is not None and not failure.reached:
                unreachable = failed
            emit(failed)
            continue
        emit(Relisted(res.kind, items, t))
        emit(SourceState(res.name, Conn.OK, "", t))


class LiveSource:
    def __init__(self, api_client: ApiClient, namespace: str, emit: Emit, resources: tuple[Resource, ...] = RESOURCES,
                 clock: Callable[[], float] | None = None, watch_seconds: int = WATCH_SECONDS,
                 check_every: float = CHECK_EVERY) -> None:
        self.api_client = api_client
        self.watch_seconds = watch_seconds
        self.check_every = check_every
        self.namespace = namespace
        self.emit = emit
        self.resources = resources
        self._start = time.monotonic()
        self.clock = clock or (lambda: time.monotonic() - self._start)
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._responses: dict[str, object] = {}
        self.gone: dict[str, int] = {}  # 410s seen per resource (each one caused a relist)
        # What the source has passed on, per resource: how many objects and the resourceVersions
        # of the first in list order, and when its watch last heard anything (an event or a
        # bookmark), for the watchdog and a dump.
        self.held: dict[str, Held] = {res.name: Held(kept_from_a_list(res)) for res in resources}
        self.heard: dict[str, tuple[str, float]] = {}  # resource -> (resourceVersion, clock time)
        self.relisted: dict[str, int] = {}  # the watchdog's relists per resource
        self._relist: set[str] = set()  # resources whose watch the watchdog dropped
        self._doubts: dict[str, tuple[Said, tuple[str, float] | None]] = {}  # resource -> (what the server said, heard then)

    def start(self) -> "LiveSource":
        """Each watch and the watchdog in a thread of their own (the app runs them as its workers)."""
        loops = [(partial(self.run_resource, res), f"watch-{res.name}") for res in self.resources]
        for target, name in loops + [(self.run_watchdog, "watchdog")]:
            th = threading.Thread(target=target, name=name, daemon=True)
            th.start()
            self._threads.append(th)
        return self

    def stop(self) -> None:
        self._stop.set()
        for resp in list(self._responses.values()):
            _abort(resp)

    def join(self, timeout: float = 5.0) -> None:
        for th in self._threads:
            th.join(timeout)

    def _state(self, res: Resource, state: Conn, detail: str = "") -> None:
        self.emit(SourceState(res.name, state, detail, self.clock()))

    def run_resource(self, res: Resource) -> None:
        """The reflector loop for one resource; blocks until stop()."""
        backoff = 1.0
        state = Conn.CONNECTING
        failed_shown = False
        while not self._stop.is_set():
            # A forbidden resource or a missing CRD keeps its state while we retry: it is a
            # settled answer, not a broken link, so the header must not flicker to "connecting".
            # Nor does a failure: its reason stays on screen until a retry works.
            if state not in (Conn.FORBIDDEN, Conn.CRD_MISSING) and not failed_shown:
                self._state(res, state)
            try:
                held = Held(kept_from_a_list(res))
                items, rv = list_once(self.api_client, res, self.namespace, held)
                self.held[res.name] = held
                self._heard(res, rv)
                self.emit(Relisted(res.kind, items, self.clock()))
                self._state(res, Conn.OK)
                failed_shown = False
                backoff = 1.0
                while not self._stop.is_set() and res.name not in self._relist:
                    rv = self._watch(res, rv)
                if self._relist_now(res):
                    state, failed_shown = Conn.RECONNECTING, True  # its reason stays until the list is in
                    continue
            except Gone:
                self.gone[res.name] = self.gone.get(res.name, 0) + 1
                state, failed_shown = Conn.RECONNECTING, False
                continue  # relist at once: the store is replaced by the fresh list
            except Exception as exc:  # noqa: BLE001 - every failure becomes a state + retry
                if self._stop.is_set():
                    return
                if self._relist_now(res):  # the watchdog cut the watch: list again at once
                    state, failed_shown = Conn.RECONNECTING, True
                    continue
                failed = classify(exc, res, server_of(self.api_client))
                state = failed.state
                if state is Conn.CRD_MISSING:  # no CRD, no objects of it: drop what we held
                    self.emit(Relisted(res.kind, [], self.clock()))
                self.emit(replace(failed, t=self.clock()))
                failed_shown = True
                wait = backoff if state is Conn.RECONNECTING else max(backoff, 10.0)
                backoff = min(backoff * 2, MAX_BACKOFF)
                if self._stop.wait(wait):
                    return

    def _heard(self, res: Resource, rv: str) -> None:
        self.heard[res.name] = (rv, self.clock())

    def _relist_now(self, res: Resource) -> bool:
        """Whether the watchdog dropped this resource's watch; says so in the header (the store
        keeps its last data until the new list replaces it)."""
        if res.name not in self._relist:
            return False
        self._relist.discard(res.name)
        self.relisted[res.name] = self.relisted.get(res.name, 0) + 1
        self.emit(SourceState(res.name, Conn.RECONNECTING, "watch went silent: listing again", self.clock(),
                              failure=silent_watch(res.name, server_of(self.api_client))))
        return True

    def run_watchdog(self) -> None:
        """Every check_every seconds, compares each watched resource with the API server's own
        count and first object; blocks until stop()."""
        while not self._stop.wait(self.check_every):
            for res in self.resources:
                if res.name in self._responses:  # only a watch that is open can be silent
                    self.check(res)

    def check(self, res: Resource) -> None:
        """One look: a disagreement seen twice, with nothing heard from the watch in between,
        drops the watch (the reflector then lists again)."""
        try:
            said = peek(self.api_client, res, self.namespace)
        except Exception:  # noqa: BLE001 - the watch's own errors report a broken link
            return
        heard = self.heard.get(res.name)
        if self.held[res.name].agrees(*said):
            self._doubts.pop(res.name, None)
            return
        doubt = self._doubts.get(res.name)
        if doubt is None or doubt[1] != heard:  # first seen, or the watch moved since: in flight
            self._doubts[res.name] = (said, heard)
            return
        self._doubts.pop(res.name, None)
        self._relist.add(res.name)
        resp = self._responses.get(res.name)
        if resp is not None:
            _abort(resp)

    def _watch(self, res: Resource, rv: str) -> str:
        from kubernetes.watch.watch import iter_resp_lines

        fn = list_call(self.api_client, res)
        args = (self.namespace,) if res.namespaced else ()
        resp = fn(*args, watch=True, resource_version=rv, allow_watch_bookmarks=True,
                  timeout_seconds=self.watch_seconds, _preload_content=False,
                  _request_timeout=(CONNECT_TIMEOUT, self.watch_seconds + 30))
        self._responses[res.name] = resp
        if res.name in self._relist:  # the watchdog dropped this watch while it was being opened
            _abort(resp)
        try:
            for line in iter_resp_lines(resp):
                if not line:
                    continue
                ev = decode(line)
                typ, obj = ev.get("type"), ev.get("object") or {}
                if typ == "ERROR":
                    if obj.get("code") == 410:
                        raise Gone()
                    from kubernetes.client.exceptions import ApiException
                    raise ApiException(status=obj.get("code"), reason=obj.get("message"))
                rv = o.resource_version(obj) or rv
                self._heard(res, rv)
                if typ in ("ADDED", "MODIFIED", "DELETED"):
                    held = self.held[res.name]
                    if typ == "DELETED":
                        held.deleted(_key(obj))
                    elif typ == "ADDED":
                        held.added(_key(obj), o.resource_version(obj))
                    else:
                        held.modified(_key(obj), o.resource_version(obj))
                    o.drop_managed_fields(obj)  # here, on the watch's thread: less to queue and keep
                    obj.setdefault("kind", res.kind)
                    obj.setdefault("apiVersion", res.api_version)
                    self.emit(ObjectEvent(typ, obj, self.clock()))
                if self._stop.is_set():
                    break
        finally:
            self._responses.pop(res.name, None)
            resp.release_conn()
        return rv

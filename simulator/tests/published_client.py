"""A client of the service written only from its published version-5 interface (docs/wire.md).

It knows nothing of the simulator: base URL, login, the session cookie, the XSRF header,
paging and the error body. Every answer is checked for members sent as null, which a public
client that tests for presence would trip over.
"""

import requests

PAGE = 1500


class ServiceError(Exception):
    def __init__(self, response):
        body = response.json()
        super().__init__("%s %s: %d %s %s" % (response.request.method, response.request.path_url, response.status_code,
                                              body.get("code"), body.get("message")))
        self.status = response.status_code
        self.code = body.get("code")


def _reject_nulls(value, where):
    if value is None:
        raise AssertionError("null member at " + where)
    if isinstance(value, dict):
        for key, item in value.items():
            _reject_nulls(item, where + "." + key)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _reject_nulls(item, "%s[%d]" % (where, index))


class PublishedClient:
    def __init__(self, base_url):
        self.base_url = base_url.rstrip("/")
        self.http = requests.Session()

    def login(self, username=None, password=None, api_token=None):
        body = {"userApiToken": api_token} if api_token else {"username": username, "password": password}
        return self._call("POST", "/login", body)

    def _call(self, method, path, body=None, params=None):
        headers = {}
        if method not in ("GET", "HEAD"):
            token = self.http.cookies.get("XSRF-TOKEN")
            if token:
                headers["X-XSRF-TOKEN"] = token.strip('"').replace("\\012", "")
        response = self.http.request(method, self.base_url + path, json=body, params=params, headers=headers, timeout=10)
        if response.status_code >= 400:
            raise ServiceError(response)
        if not response.content:
            return None
        data = response.json()
        _reject_nulls(data, method + " " + path)
        return data

    def get(self, path, **params):
        return self._call("GET", path, params=params or None)

    def post(self, path, body=None):
        return self._call("POST", path, body)

    def patch(self, path, body):
        return self._call("PATCH", path, body)

    def delete(self, path, body=None):
        return self._call("DELETE", path, body)

    def list(self, path, limit=PAGE, **params):
        """Every item of a paged list: pages until one comes back shorter than ``limit``."""
        items, offset = [], 0
        while True:
            page = self.get(path, offset=offset, limit=limit, **params)["items"]
            items.extend(page)
            if len(page) < limit:
                return items
            offset += limit

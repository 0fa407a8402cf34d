"""The service's error body, ``{"code", "message"}``, raised from anywhere in the simulator."""


class ServiceError(Exception):
    """An answer of the service with a 4xx/5xx status and its error body."""

    def __init__(self, status, code, message, headers=None):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers or {}

    def body(self):
        return {"code": self.code, "message": self.message}


def not_found(what):
    return ServiceError(404, "notFound", "%s was not found." % what)


def invalid(message, status=400, code="invalidInput"):
    return ServiceError(status, code, message)


def unprocessable(message):
    return ServiceError(422, "invalidInput", message)


def conflict(message, code="conflict"):
    return ServiceError(409, code, message)


def forbidden(message="This user is not allowed to do that."):
    return ServiceError(403, "forbidden", message)

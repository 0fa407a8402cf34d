"""A simulator of the Replication and Recovery Service (interface version 5).

It serves the wire contract of docs/wire.md from memory, on a virtual clock, so that the
collection can be run, tested and measured on one machine. See README.md beside this file.
"""

from .app import create_app
from .state import Simulator

__all__ = ["create_app", "Simulator"]

#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
module: runbook_look
short_description: TODO
description: [TODO]
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

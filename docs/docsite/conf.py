# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

# The documentation site's Sphinx configuration: antsibull-docs writes the reference (every module, plugin and role)
# under collections/, and docs/docsite/assemble.py puts the guides - Markdown, read by MyST - beside it, as they are in
# the repository, so that their links between each other hold in both places. Built by `make docs` with every warning
# an error (-W -n): a broken link or reference fails the build.

project = "replication.recovery"
copyright = "Contributors to the replication.recovery collection"  # pylint: disable=redefined-builtin  # the name Sphinx reads
title = "replication.recovery"
html_short_title = "replication.recovery"

extensions = ["sphinx.ext.intersphinx", "sphinx_antsibull_ext", "myst_parser"]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"

pygments_style = "ansible"
highlight_language = "YAML+Jinja"
html_theme = "sphinx_ansible_theme"
html_show_sphinx = False
display_version = False
html_use_smartypants = True
html_use_modindex = False
html_use_index = False
html_copy_source = False
html_theme_options = {"collapse_navigation": False, "navigation_depth": 3}

# The references antsibull-docs makes into Ansible's own documentation resolve through a small inventory of ours
# (docs/docsite/assemble.py writes it): the build reads no network, and every link points to docs.ansible.com.
intersphinx_mapping = {"ansible_devel": ("https://docs.ansible.com/projects/ansible/devel/", "ansible_devel.inv")}

default_role = "any"
nitpicky = True

# GitHub's heading anchors (#fleet-health-a-nightly-gate), which the guides link by.
myst_heading_anchors = 4

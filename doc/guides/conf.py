# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5cq authors

# Sphinx configuration of the mlx5cq user guide:
#   sphinx-build -W -b html doc/guides build/doc/guides/html
# The net_mlx5cq features table is made from nics/features/mlx5cq.ini
# (DPDK's features .ini format) into nics/features/mlx5cq_table.txt.

import configparser
from os.path import dirname, join, realpath
import re

guides = dirname(realpath(__file__))

project = 'mlx5cq'
copyright = '2026, The mlx5cq authors'
html_show_copyright = False
master_doc = 'index'
highlight_language = 'none'
exclude_patterns = ['nics/features/*.txt']

with open(join(guides, '..', '..', 'meson.build'), encoding='utf-8') as f:
    release = re.search(r"version:\s*'([^']+)'", f.read()).group(1)
version = release


def features_table(ini, out):
    """Render the sections of a DPDK features .ini ([Features], then
    [rte_flow items] and [rte_flow actions]) as list tables."""
    conf = configparser.ConfigParser()
    conf.optionxform = str
    conf.read(ini, encoding='utf-8')
    lines = []
    for sec, head in (('Features', 'Feature'),
                      ('rte_flow items', 'rte_flow item'),
                      ('rte_flow actions', 'rte_flow action')):
        if not conf.has_section(sec):
            continue
        lines += ['.. list-table::', '   :header-rows: 1', '',
                  '   * - ' + head, '     - Support']
        for name, value in conf.items(sec):
            lines += ['   * - ' + name, '     - ' + value]
        lines.append('')
    with open(out, 'w', encoding='utf-8') as f:
        f.write('\n'.join(lines))


def setup(app):
    features_table(join(guides, 'nics', 'features', 'mlx5cq.ini'),
                   join(guides, 'nics', 'features', 'mlx5cq_table.txt'))

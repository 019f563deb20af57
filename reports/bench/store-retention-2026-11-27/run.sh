#!/usr/bin/env bash
# Five support sweeps of every target into one results store, with
# `matload prune --keep 1` after the third and the fourth, recording the
# store's size after each step (store-sizes.txt) and each sweep's wall
# time (sweep-times.txt). Run from an empty directory, with MATLOAD=the
# matload binary and MATLOAD_SOURCE_DIR=the repository.
set -eu
export MATLOAD_DB=$PWD/store.sqlite
size() { echo "$1: $(stat -c %s store.sqlite) bytes" >> store-sizes.txt; }
sweep() { /usr/bin/time -f "sweep $1: %e s" "$MATLOAD" support --out run$1 > /dev/null 2>> sweep-times.txt; size "after sweep $1"; }
prune() { "$MATLOAD" prune --keep 1 >> store-sizes.txt; size "after prune --keep 1"; }
sweep 1; sweep 2; sweep 3; prune; sweep 4; prune; sweep 5

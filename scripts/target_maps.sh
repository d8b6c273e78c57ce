# shellcheck shell=bash
# The six target maps the searches are measured on, one per family of ../shared/maps
# (folder/name, without .map). Sourced by bench_search.sh and bench_public.sh, so that both
# always run the same set.
# shellcheck disable=SC2034  # used by the scripts that source this file
target_maps=(bg512/AR0500SR dao/brc202d dao/den520d random/random512-25-1 rooms/64room_001 mazes/maze512-8-1)

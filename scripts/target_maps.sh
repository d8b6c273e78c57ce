# shellcheck shell=bash
# What the benchmark scripts share, so that they always run the same set the same way: the
# six target maps the searches are measured on, one per family of ../shared/maps
# (folder/name, without .map), the maps folder, and a scenario's queries spread evenly.
# shellcheck disable=SC2034  # used by the scripts that source this file
target_maps=(bg512/AR0500SR dao/brc202d dao/den520d random/random512-25-1 rooms/64room_001 mazes/maze512-8-1)
maps_dir=${LDDB_MAPS_DIR:-../shared/maps}

# scaled MAP OUT FACTOR: the map with every cell drawn as FACTOR x FACTOR cells.
scaled() {
  awk -v f="$3" 'NR == 2 || NR == 3 { print $1, $2 * f; next }
    NR <= 4 { print; next }
    { row = ""; for (i = 1; i <= length($0); ++i) { c = substr($0, i, 1); for (k = 0; k < f; ++k) row = row c }
      for (k = 0; k < f; ++k) print row }' "$1" >"$2"
}

# scaled_scen SCEN OUT FACTOR: the scenario on the scaled map: sizes, start, goal and
# optimal length times FACTOR (the scaled map's optimum can be shorter: a path may turn
# inside what was one cell).
scaled_scen() {
  awk -v f="$3" 'BEGIN { OFS = "\t" } FNR == 1 { print; next }
    { $3 *= f; $4 *= f; $5 *= f; $6 *= f; $7 *= f; $8 *= f; $9 = sprintf("%.8f", $9 * f); print }' "$1" >"$2"
}

# spread_queries SCEN LIMIT: the scenario's version line, then LIMIT of its queries (all when
# it has fewer) taken at even steps over the file: a file lists its queries shortest first,
# so its first queries alone would time only short paths.
spread_queries() {
  awk -v limit="$2" 'FNR == NR { n++; next }
    FNR == 1 { print; step = (n - 1) / limit; if (step < 1) step = 1; next_at = 0; k = 0; next }
    k < limit && FNR - 2 >= next_at { print; k++; next_at += step }' "$1" "$1"
}

#!/usr/bin/env bash
# Usage: scripts/readme_snippets.sh PREFIX [README]
# Builds and runs README.md's code against the lddb installed in PREFIX, from the README's
# own text (scripts/install_check.sh calls it; tests/CMakeLists.txt cuts the same blocks for
# the build tree's readme_snippet, readme_c_snippet and readme_python_snippet).
#
# Markers, each an HTML comment alone on the line right before a fenced block (```):
#   <!-- snippet: NAME -->   write the block's content to the file NAME (a relative path)
#                            in one fresh work folder;
#   <!-- snippet-run -->     a sh block, run with bash (-e -o pipefail) in that folder after
#                            every file is written, in the README's order, with each
#                            /opt/lddb (the install prefix the README writes) replaced by PREFIX.
# Blocks without a marker are prose. Fails if the README has no file or no run block, if a
# marker is not followed by a fenced block, or if a run block fails.
set -euo pipefail
if [[ $# -lt 1 || $# -gt 2 ]]; then
  echo "usage: readme_snippets.sh PREFIX [README]" >&2
  exit 2
fi
prefix=$(realpath "$1")
readme=${2:-$(dirname "${BASH_SOURCE[0]}")/../README.md}
[[ -d $prefix ]] || { echo "readme_snippets.sh: $1: not a folder" >&2; exit 2; }
[[ -f $readme ]] || { echo "readme_snippets.sh: $readme: no such file" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/snippets" "$work/runs"

# Cut the marked blocks: files to snippets/NAME, run blocks to runs/NNN.sh; prints one line
# per block, "file NAME LINE" or "run FILE LINE".
awk -v files="$work/snippets" -v runs="$work/runs" '
  function die(msg) { print FILENAME ":" NR ": " msg > "/dev/stderr"; failed = 1; exit 1 }
  inside {
    if ($0 ~ /^[ \t]*```/) { inside = 0; close(out); next }
    print > out; next
  }
  pending != "" {
    if ($0 !~ /^[ \t]*```/) die("\"" marker "\" is not followed by a fenced block")
    if (pending == "run") {
      out = sprintf("%s/%03d.sh", runs, ++nruns)
      print "run " out " " NR
    } else {
      out = files "/" pending
      print "file " pending " " NR
    }
    printf "" > out
    inside = 1; pending = ""; next
  }
  /^[ \t]*<!--[ \t]*snippet-run[ \t]*-->[ \t]*$/ { pending = "run"; marker = $0; next }
  /^[ \t]*<!--[ \t]*snippet:[ \t]*[^ \t]+[ \t]*-->[ \t]*$/ {
    name = $0
    sub(/^[ \t]*<!--[ \t]*snippet:[ \t]*/, "", name); sub(/[ \t]*-->[ \t]*$/, "", name)
    if (name ~ /^\// || name ~ /(^|\/)\.\.(\/|$)/) die("snippet name \"" name "\" must be a relative path inside the work folder")
    if (name ~ /\//) die("snippet name \"" name "\": folders are not supported")
    pending = name; marker = $0; next
  }
  END {
    if (failed) exit 1
    if (inside) { print FILENAME ": a marked block is not closed" > "/dev/stderr"; exit 1 }
    if (pending != "") { print FILENAME ": \"" marker "\" at the end of the file" > "/dev/stderr"; exit 1 }
  }
' "$readme" >"$work/blocks"

nfiles=$(grep -c '^file ' "$work/blocks" || true)
nruns=$(grep -c '^run ' "$work/blocks" || true)
if [[ $nfiles -eq 0 || $nruns -eq 0 ]]; then
  echo "readme_snippets.sh: $readme has $nfiles snippet files and $nruns run blocks; the markers are missing" >&2
  exit 1
fi
echo "readme_snippets.sh: $readme: $nfiles files ($(grep '^file ' "$work/blocks" | cut -d' ' -f2 | tr '\n' ' ')), $nruns run blocks"

folder=$work/folder
mkdir "$folder"
cp -r "$work/snippets/." "$folder/"
while read -r kind file line; do
  [[ $kind == run ]] || continue
  sed -i "s|/opt/lddb|$prefix|g" "$file"
  echo "readme_snippets.sh: running the block at $readme:$line:"
  sed 's/^/  | /' "$file"
  # A clean environment, as a new user's shell would have no LDDB_DATA_DIR or library path.
  if ! (cd "$folder" && env -i PATH=/usr/bin:/bin HOME="$work" bash -e -o pipefail "$file"); then
    echo "readme_snippets.sh: FAILED: the block at $readme:$line" >&2
    exit 1
  fi
done <"$work/blocks"
echo "readme_snippets.sh: ok"

// fingerprint: prints tests/fingerprint.hpp's lines, to record tests/fingerprint/expected.txt
// after a change that alters paths on purpose.
// Usage: fingerprint SOURCE_DIR [MAPS_DIR]   (MAPS_DIR default SOURCE_DIR/../shared/maps)
#include <iostream>

#include "fingerprint.hpp"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: fingerprint SOURCE_DIR [MAPS_DIR]\n";
    return 2;
  }
  const lddb_fingerprint::fs::path source = argv[1];
  const lddb_fingerprint::fs::path maps = argc > 2 ? lddb_fingerprint::fs::path(argv[2]) : source / ".." / "shared" / "maps";
  std::vector<std::string> missing;
  std::string error;
  const auto lines = lddb_fingerprint::fingerprint(source, maps, &missing, &error);
  if (!error.empty()) {
    std::cerr << "fingerprint: " << error << '\n';
    return 1;
  }
  for (const auto& m : missing) std::cerr << "fingerprint: missing map, its lines left out: " << m << '\n';
  for (const auto& l : lines) std::cout << l << '\n';
  return missing.empty() ? 0 : 3;
}

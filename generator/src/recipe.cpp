// The recipe as a Boost.Serialization XML archive: portable, versioned (class version
// below), and free of timestamps, so the same recipe always gives the same bytes.
#include <sstream>
#include <stdexcept>

#include <boost/archive/archive_exception.hpp>
#include <boost/archive/xml_iarchive.hpp>
#include <boost/archive/xml_oarchive.hpp>
#include <boost/serialization/nvp.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/version.hpp>

#include "lddb/generator.hpp"
#include "lddb/block_shape.hpp"
#include "lddb/rule.hpp"

namespace boost::serialization {

template <class Archive>
void serialize(Archive& ar, lddb::recipe& r, const unsigned int /*version*/) {
  // Enums travel as their on-disk numbers (the same as in the file header).
  auto kind = static_cast<unsigned>(r.movement.kind);
  auto corners = static_cast<unsigned>(r.movement.corners);
  auto squeeze = static_cast<unsigned>(r.movement.squeeze);
  std::uint64_t diagonal = r.movement.diagonal;
  std::string rule_name = r.movement.name();  // for people reading the manifest
  ar& make_nvp("rule", rule_name);
  ar& make_nvp("rule_kind", kind);
  ar& make_nvp("corner_cutting", corners);
  ar& make_nvp("squeezing", squeeze);
  ar& make_nvp("diagonal_cost", diagonal);
  ar& make_nvp("block", r.block);
  ar& make_nvp("use_symmetry", r.use_symmetry);
  ar& make_nvp("zstd_level", r.zstd_level);
  ar& make_nvp("generator_version", r.generator_version);
  if (auto why = lddb::rule_fields_error(kind, corners, squeeze, diagonal))
    throw std::runtime_error("manifest rule '" + rule_name + "': " + *why);
  r.movement = lddb::rule_from_fields(kind, corners, squeeze, diagonal);
  if (r.movement.name() != rule_name)
    throw std::runtime_error("manifest rule '" + rule_name + "' disagrees with its fields ('" + r.movement.name() + "')");
}

}  // namespace boost::serialization

BOOST_CLASS_VERSION(lddb::recipe, 1)

namespace lddb {

std::string recipe_to_manifest(const recipe& r) {
  std::ostringstream out;
  {
    boost::archive::xml_oarchive ar(out, boost::archive::no_header);
    recipe copy = r;
    ar << boost::serialization::make_nvp("recipe", copy);
  }
  return "lddb-recipe 1\n" + out.str();
}

recipe recipe_from_manifest(const std::string& text) {
  const std::string magic = "lddb-recipe 1\n";
  if (text.compare(0, magic.size(), magic) != 0) throw std::runtime_error("manifest is not an lddb recipe");
  std::istringstream in(text.substr(magic.size()));
  recipe r;
  try {
    boost::archive::xml_iarchive ar(in, boost::archive::no_header);
    ar >> boost::serialization::make_nvp("recipe", r);
  } catch (const boost::archive::archive_exception& e) {
    throw std::runtime_error(std::string("manifest cannot be read: ") + e.what());
  }
  if (r.block < block_shape::kMinBlock || r.block > block_shape::kMaxBlock)
    throw std::runtime_error("manifest block size " + std::to_string(r.block) + " is not 2..5");
  return r;
}

}  // namespace lddb

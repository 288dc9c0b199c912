// Vendor identity facts built into the checks, not left to the catalog: vendors whose optics
// carry an OUI registered under another name (a rename or an acquisition). A site whose
// `catalog` setting replaces the shipped catalog, or a daemon whose shipped catalog is missing,
// must still see genuine NVIDIA optics (Mellanox's OUIs under the vendor name NVIDIA) pass
// vendor_oui; otherwise every one of them pages TransceiverCodingCheckFailed.
#pragma once

#include <span>
#include <string>

#include "coding/catalog.hpp"

namespace xcvr::coding {

// The built-in vendors, each with its sources (vendor_identity.cpp holds the one table).
// Catalog::find_vendor() and find_vendor() look here after the catalog's [vendor.*] entries.
std::span<const CatalogVendor> builtin_vendors();

}  // namespace xcvr::coding

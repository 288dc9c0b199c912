// Vendor identity facts built into the checks, not left to the catalog: vendors whose optics
// carry an OUI registered under another name (a rename or an acquisition). A site whose
// `catalog` setting replaces the shipped catalog, or a daemon whose shipped catalog is missing,
// must still see genuine NVIDIA optics (Mellanox's OUIs under the vendor name NVIDIA) pass
// vendor_oui; otherwise every one of them pages TransceiverCodingCheckFailed.

#include "coding/catalog.hpp"

#include <vector>

namespace xcvr::coding {

namespace {

// Sources:
//  [OUI]   IEEE MA-L registry as Debian's ieee-data ships it (/usr/share/ieee-data/oui.txt,
//          .lastupdate 1661630937 = 2022-08-27): every assignment to "Mellanox Technologies,
//          Inc.", "NVIDIA Corporation" or "NVIDIA" (grep -i 'mellanox\|nvidia' oui.txt), and
//          the one to "JDS Uniphase Inc." (none to Lumentum).
//  [MLNX]  NVIDIA completed its acquisition of Mellanox on 27 April 2020: "NVIDIA Acquires
//          Mellanox for $7 Billion", allaboutcircuits.com, 28 April 2020
//          (allaboutcircuits.com/news/with-an-eye-on-intelligent-next-gen-data-centers-nvidia-
//          acquires-mellanox-for-7billion); "NVIDIA's Acquisition Of Mellanox All Wrapped Up",
//          pcper.com/2020/04/nvidias-acquisition-of-mellanox-all-wrapped-up/. Optics sold since
//          under the name NVIDIA keep Mellanox's OUIs (tests/data/qsfp56-dac-mellanox-*,
//          the demo's MMA4Z00 modules: 00:02:c9).
//  [LITE]  JDSU separated its optical products business as Lumentum Holdings on 1 August 2015
//          ("JDSU Sets Record and Distribution Date for Separation of JDSU into Lumentum Holdings
//          and Viavi Solutions", SEC exhibit 99.1, sec.gov/Archives/edgar/data/912093/
//          000119312515253636/d97642dex991.htm). Lumentum optics carry JDSU's OUI 00:01:9c,
//          registered to "JDS Uniphase Inc." [OUI] (tests/data/qsfp28-cwdm4-lumentum-lq210cr-caa1).
const std::vector<CatalogVendor>& table() {
  static const std::vector<CatalogVendor> vendors = {
      {.key = "nvidia",
       .names = {"NVIDIA", "Mellanox", "Mellanox Technologies"},
       .registrants = {"Mellanox Technologies, Inc.", "NVIDIA Corporation", "NVIDIA"},
       .ouis = {"00:02:c9", "7c:fe:90", "04:3f:72", "48:b0:2d", "e8:eb:d3", "90:0a:84", "b8:3f:d2", "ec:0d:9a",
                "00:25:8b", "f4:52:14", "0c:42:a1", "08:c0:eb", "10:70:fd", "9c:05:91", "b8:59:9f", "98:03:9b",
                "00:04:4b", "e4:1d:2d", "24:8a:07", "b8:ce:f6", "1c:34:da", "50:6b:4b", "94:6d:ae"},
       .rebrander = false,
       .source = "[OUI] IEEE MA-L registry (Debian ieee-data 2022-08-27); [MLNX] NVIDIA completed its "
                 "Mellanox acquisition in April 2020",
       .location = "built in (coding/vendor_identity.cpp)"},
      {.key = "lumentum",
       .names = {"LUMENTUM", "Lumentum Operations", "JDSU", "JDS Uniphase"},
       .registrants = {"JDS Uniphase Inc.", "JDS Uniphase Corporation", "Lumentum"},
       .ouis = {"00:01:9c"},
       .rebrander = false,
       .source = "[OUI] IEEE MA-L registry; [LITE] Lumentum separated from JDSU on 1 August 2015",
       .location = "built in (coding/vendor_identity.cpp)"},
  };
  return vendors;
}

}  // namespace

std::span<const CatalogVendor> builtin_vendors() { return table(); }

}  // namespace xcvr::coding

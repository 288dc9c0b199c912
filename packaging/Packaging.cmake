# Install rules and the Debian package (CPack, DEB generator). Included at the end of the
# top-level CMakeLists.txt: `include(packaging/Packaging.cmake)`.
#
#   cmake --build build/release && (cd build/release && cpack -G DEB)
#       -> build/release/transceiver-exporter_<version>-<release>_<arch>.deb
#   DESTDIR=/tmp/root cmake --install build/release      (the same tree, unpacked)
#
# Layout (Debian bookworm; unit and udev rule in /lib until the /usr-merge moratorium ends):
#   /usr/bin/transceiver_exporter, /usr/bin/xcvrctl
#   /etc/transceiver-exporter/config.toml, /etc/default/transceiver-exporter   (conffiles)
#   /etc/transceiver-exporter/prometheus/runbook.yml   (conffile: the alerts' runbook URL)
#   /lib/systemd/system/transceiver-exporter.service
#   /lib/udev/rules.d/60-transceiver-exporter.rules
#   /usr/lib/sysusers.d/transceiver-exporter.conf, /usr/lib/tmpfiles.d/transceiver-exporter.conf
#   /usr/share/transceiver-exporter/{catalog,prometheus,alertmanager,grafana,examples,demo}/
#   /usr/share/man/man8/{transceiver_exporter,xcvrctl}.8.gz
#   /usr/share/bash-completion/completions/{transceiver_exporter,xcvrctl}
#   /usr/share/doc/transceiver-exporter/{copyright,changelog.Debian.gz,README.*,*.md}

set(XCVR_PKG_DIR ${CMAKE_CURRENT_LIST_DIR})
cmake_path(GET XCVR_PKG_DIR PARENT_PATH XCVR_SRC_DIR)
set(XCVR_PKG_NAME transceiver-exporter)

# The unit, udev rule and maintainer scripts name /usr/bin: install there unless told otherwise
# (the default /usr/local would leave the unit pointing at nothing).
if(CMAKE_INSTALL_PREFIX_INITIALIZED_TO_DEFAULT)
  set(CMAKE_INSTALL_PREFIX /usr CACHE PATH "Install prefix (the systemd unit expects /usr)" FORCE)
endif()

# `cpack` / `ninja install` package what is built and do not first build every target (the
# tests, benchmarks): the packaging tests run cpack inside ctest, after the build.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)

set(XCVR_DEB_RELEASE 1 CACHE STRING "Debian revision of the package (the -N in VERSION-N)")
set(XCVR_DEB_MAINTAINER "transceiver-exporter maintainers <transceiver-exporter@example.org>"
    CACHE STRING "Maintainer field of the Debian package")
set(XCVR_DEB_VERSION "${PROJECT_VERSION}-${XCVR_DEB_RELEASE}")

set(XCVR_SYSTEMD_UNIT_DIR /lib/systemd/system CACHE PATH "systemd system unit directory")
set(XCVR_UDEV_RULES_DIR /lib/udev/rules.d CACHE PATH "udev rules directory")

set(XCVR_SHARE_DIR share/${XCVR_PKG_NAME})
set(XCVR_DOC_DIR share/doc/${XCVR_PKG_NAME})
set(XCVR_PKG_BUILD_DIR ${PROJECT_BINARY_DIR}/packaging)

# --- generated files: man pages (gzip -9n, reproducible), changelog.Debian.gz, conffiles -----
find_program(XCVR_GZIP gzip REQUIRED)
set(XCVR_PKG_GENERATED)
foreach(page transceiver_exporter.8 xcvrctl.8)
  # The sources are templates (.8.in): a page read from the tree never shows a placeholder.
  configure_file(${XCVR_SRC_DIR}/man/${page}.in ${XCVR_PKG_BUILD_DIR}/man/${page} @ONLY)
  add_custom_command(
    OUTPUT ${XCVR_PKG_BUILD_DIR}/man/${page}.gz
    COMMAND ${XCVR_GZIP} -9nf -k ${XCVR_PKG_BUILD_DIR}/man/${page}
    DEPENDS ${XCVR_PKG_BUILD_DIR}/man/${page}
    COMMENT "gzip man page ${page}"
    VERBATIM)
  list(APPEND XCVR_PKG_GENERATED ${XCVR_PKG_BUILD_DIR}/man/${page}.gz)
endforeach()

configure_file(${XCVR_PKG_DIR}/changelog.in ${XCVR_PKG_BUILD_DIR}/changelog.Debian @ONLY)
add_custom_command(
  OUTPUT ${XCVR_PKG_BUILD_DIR}/changelog.Debian.gz
  COMMAND ${XCVR_GZIP} -9nf -k ${XCVR_PKG_BUILD_DIR}/changelog.Debian
  DEPENDS ${XCVR_PKG_BUILD_DIR}/changelog.Debian
  COMMENT "gzip changelog.Debian"
  VERBATIM)
list(APPEND XCVR_PKG_GENERATED ${XCVR_PKG_BUILD_DIR}/changelog.Debian.gz)

add_custom_target(xcvr_packaging_files ALL DEPENDS ${XCVR_PKG_GENERATED})

# --- binaries ----------------------------------------------------------------------------------
# /usr/bin, not /usr/sbin: Debian's Prometheus exporters live in /usr/bin, and the daemon is
# useful to unprivileged users too (--check-config, the emulator and file sources, --textfile).
if(TARGET transceiver_exporter)
  install(TARGETS transceiver_exporter RUNTIME DESTINATION bin)
else()
  message(WARNING "packaging: no transceiver_exporter target (exporters/http/frontend.hpp missing); "
                  "the package would lack the daemon")
endif()
install(TARGETS xcvrctl RUNTIME DESTINATION bin)

# --- configuration (conffiles) -------------------------------------------------------------
install(FILES ${XCVR_SRC_DIR}/config/config.toml DESTINATION /etc/${XCVR_PKG_NAME})
install(FILES ${XCVR_PKG_DIR}/default DESTINATION /etc/default RENAME ${XCVR_PKG_NAME})
# The one setting of the Prometheus rules an operator makes (the runbook base URL every alert
# links to): a conffile, so upgrades keep it; the rules themselves go to /usr/share (below).
install(FILES ${XCVR_SRC_DIR}/config/prometheus/runbook.yml DESTINATION /etc/${XCVR_PKG_NAME}/prometheus)
set(XCVR_CONFFILES /etc/${XCVR_PKG_NAME}/config.toml /etc/default/${XCVR_PKG_NAME}
    /etc/${XCVR_PKG_NAME}/prometheus/runbook.yml)

# --- systemd, udev, sysusers, tmpfiles -----------------------------------------------------
install(FILES ${XCVR_SRC_DIR}/systemd/transceiver-exporter.service DESTINATION ${XCVR_SYSTEMD_UNIT_DIR})
install(FILES ${XCVR_SRC_DIR}/systemd/60-transceiver-exporter.rules DESTINATION ${XCVR_UDEV_RULES_DIR})
install(FILES ${XCVR_SRC_DIR}/systemd/transceiver-exporter.sysusers
        DESTINATION lib/sysusers.d RENAME ${XCVR_PKG_NAME}.conf)
install(FILES ${XCVR_SRC_DIR}/systemd/transceiver-exporter.tmpfiles
        DESTINATION lib/tmpfiles.d RENAME ${XCVR_PKG_NAME}.conf)
# Opt-in pieces: drop-ins and the umad udev rule, copied into /etc by the operator.
install(FILES
          ${XCVR_SRC_DIR}/systemd/infiniband.conf
          ${XCVR_SRC_DIR}/systemd/i2c-only.conf
          ${XCVR_SRC_DIR}/systemd/textfile.conf
          ${XCVR_SRC_DIR}/systemd/61-transceiver-exporter-umad.rules
        DESTINATION ${XCVR_SHARE_DIR}/examples)

# --- data: catalog, Prometheus rules, Grafana dashboard, demo fleet --------------------------
# Globbed: other people add files here; CONFIGURE_DEPENDS re-runs cmake when the set changes.
# Files under /etc (conffiles, above) are left out of the globs.
function(xcvr_install_glob destination)
  file(GLOB files CONFIGURE_DEPENDS ${ARGN})
  list(REMOVE_ITEM files ${XCVR_SRC_DIR}/config/prometheus/runbook.yml)
  if(files)
    install(FILES ${files} DESTINATION ${destination})
  endif()
endfunction()
xcvr_install_glob(${XCVR_SHARE_DIR}/catalog ${XCVR_SRC_DIR}/config/catalog/*.toml)
xcvr_install_glob(${XCVR_SHARE_DIR}/prometheus ${XCVR_SRC_DIR}/config/prometheus/*.yml)
xcvr_install_glob(${XCVR_SHARE_DIR}/alertmanager ${XCVR_SRC_DIR}/config/alertmanager/*.yml)
xcvr_install_glob(${XCVR_SHARE_DIR}/grafana ${XCVR_SRC_DIR}/config/grafana/*.json)
xcvr_install_glob(${XCVR_SHARE_DIR}/demo ${XCVR_SRC_DIR}/config/demo.toml
                  ${XCVR_SRC_DIR}/config/demo-exporter.toml)
xcvr_install_glob(${XCVR_SHARE_DIR}/demo/scenarios ${XCVR_SRC_DIR}/config/scenarios/*.toml)

# --- man pages, bash completion, documentation -----------------------------------------------
install(FILES ${XCVR_PKG_BUILD_DIR}/man/transceiver_exporter.8.gz ${XCVR_PKG_BUILD_DIR}/man/xcvrctl.8.gz
        DESTINATION share/man/man8)
install(FILES ${XCVR_SRC_DIR}/completion/xcvrctl ${XCVR_SRC_DIR}/completion/transceiver_exporter
        DESTINATION share/bash-completion/completions)
install(FILES ${XCVR_PKG_DIR}/copyright ${XCVR_PKG_BUILD_DIR}/changelog.Debian.gz ${XCVR_PKG_DIR}/README.Debian
        DESTINATION ${XCVR_DOC_DIR})
install(FILES ${XCVR_SRC_DIR}/README.md DESTINATION ${XCVR_DOC_DIR})
install(FILES ${XCVR_PKG_DIR}/lintian-overrides DESTINATION share/lintian/overrides RENAME ${XCVR_PKG_NAME})
xcvr_install_glob(${XCVR_DOC_DIR} ${XCVR_SRC_DIR}/docs/*.md)

# --- CPack: the .deb ---------------------------------------------------------------------------
file(WRITE ${XCVR_PKG_BUILD_DIR}/deb/conffiles.tmp "")
foreach(f ${XCVR_CONFFILES})
  file(APPEND ${XCVR_PKG_BUILD_DIR}/deb/conffiles.tmp "${f}\n")
endforeach()
configure_file(${XCVR_PKG_BUILD_DIR}/deb/conffiles.tmp ${XCVR_PKG_BUILD_DIR}/deb/conffiles COPYONLY)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME ${XCVR_PKG_NAME})
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "${XCVR_DEB_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Prometheus exporter for pluggable optical transceivers")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_PACKAGE_NAME ${XCVR_PKG_NAME})
set(CPACK_DEBIAN_PACKAGE_RELEASE ${XCVR_DEB_RELEASE})
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${XCVR_DEB_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION net)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# Library dependencies come from dpkg-shlibdeps; these are the run-time tools the maintainer
# scripts and the unit use (sysusers/tmpfiles, /bin/kill for ExecReload).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "systemd | systemd-standalone-sysusers | systemd-sysusers, systemd | systemd-standalone-tmpfiles | systemd-tmpfiles, procps")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "ieee-data")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "prometheus, i2c-tools, ethtool")
# The synopsis is CPACK_PACKAGE_DESCRIPTION_SUMMARY; this is the extended description (CPack
# indents each line; "." lines are paragraph breaks).
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "Watches every pluggable optic of a switch or host (OSFP and QSFP-DD modules
with CMIS, QSFP28 with SFF-8636, SFP with SFF-8472) and exports temperature,
supply voltage, per-lane optical power and laser bias, thresholds, latched
flags, module state, power budgets and coding checks to Prometheus on
port 10458.
.
Modules are read through i2c-dev, the optoe sysfs driver, ethtool netlink
or InfiniBand management datagrams. The package ships a hardened systemd
service, the xcvrctl operator tool, an optic catalog, alerting rules and a
Grafana dashboard.")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
    ${XCVR_PKG_DIR}/deb/postinst ${XCVR_PKG_DIR}/deb/prerm ${XCVR_PKG_DIR}/deb/postrm
    ${XCVR_PKG_BUILD_DIR}/deb/conffiles)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
include(CPack)

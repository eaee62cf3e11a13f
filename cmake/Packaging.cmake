# SPDX-License-Identifier: Apache-2.0
# `cmake --install` and `make package` (CPack, a .deb for Debian 12).
#
# Under a prefix:  bin/dromedary, share/man/man1/dromedary*.1.gz, share/dromedary/kamelets/,
#                  share/doc/dromedary/ (README, docs, examples), the bash completion, the
#                  systemd unit and sysusers.d entry under lib/, and etc/dromedary/.
# The .deb (prefix /usr): the same under /usr, with the configuration in /etc/dromedary/.
include(GNUInstallDirs)

# Man pages and the bash completion, printed by the program from its own CLI definition.
set(dromedary_man_dir ${CMAKE_BINARY_DIR}/man)
add_custom_command(
  OUTPUT ${dromedary_man_dir}/dromedary.1.gz ${CMAKE_BINARY_DIR}/dromedary.bash-completion
  COMMAND ${CMAKE_COMMAND} -E rm -rf ${dromedary_man_dir}
  COMMAND $<TARGET_FILE:dromedary> man ${dromedary_man_dir}
  COMMAND sh -c "gzip -9nf ${dromedary_man_dir}/*.1"
  COMMAND sh -c
          "$<TARGET_FILE:dromedary> completion bash > ${CMAKE_BINARY_DIR}/dromedary.bash-completion"
  DEPENDS dromedary
  COMMENT "Man pages and bash completion from the dromedary command's definition"
  VERBATIM)
add_custom_target(dromedary_man ALL
                  DEPENDS ${dromedary_man_dir}/dromedary.1.gz
                          ${CMAKE_BINARY_DIR}/dromedary.bash-completion)

install(TARGETS dromedary RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${dromedary_man_dir}/ DESTINATION ${CMAKE_INSTALL_MANDIR}/man1
        FILES_MATCHING PATTERN "*.1.gz")
install(FILES ${CMAKE_BINARY_DIR}/dromedary.bash-completion
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME dromedary)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/kamelets/
        DESTINATION ${CMAKE_INSTALL_DATADIR}/dromedary/kamelets FILES_MATCHING PATTERN "*.kamelet.yaml")
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs
        FILES_MATCHING PATTERN "*.md")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/examples/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples
        FILES_MATCHING PATTERN "*.yaml" PATTERN "*.xml" PATTERN "*.properties"
        PATTERN "*.md" PATTERN "*.json" PATTERN "*.csv")
install(FILES ${PROJECT_SOURCE_DIR}/packaging/dromedary.service
        DESTINATION lib/systemd/system)
install(FILES ${PROJECT_SOURCE_DIR}/packaging/dromedary.sysusers
        DESTINATION lib/sysusers.d RENAME dromedary.conf)

# The configuration: /etc/dromedary for a system install (prefix /usr, as the .deb), else
# etc/dromedary under the prefix. Decided when installing, since `cmake --install --prefix`
# and CPack choose the prefix then.
install(CODE [[
  if(CMAKE_INSTALL_PREFIX MATCHES "/usr/?$")
    set(dromedary_etc "${CMAKE_INSTALL_PREFIX}/../etc/dromedary")
  else()
    set(dromedary_etc "${CMAKE_INSTALL_PREFIX}/etc/dromedary")
  endif()
  cmake_path(NORMAL_PATH dromedary_etc)
]])
install(CODE "set(dromedary_source \"${PROJECT_SOURCE_DIR}\")")
install(CODE [[
  # file(INSTALL) puts $DESTDIR (CPack's staging folder) in front itself; MAKE_DIRECTORY not.
  file(INSTALL "${dromedary_source}/packaging/etc/application.properties"
       DESTINATION "${dromedary_etc}")
  file(MAKE_DIRECTORY "$ENV{DESTDIR}${dromedary_etc}/routes")
]])

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME dromedary)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "Dromedary maintainers <dromedary@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "native integration engine that runs Apache Camel routes")
set(CPACK_PACKAGE_DESCRIPTION
    "Dromedary runs Camel YAML and XML route files natively (no JVM): routes, endpoints by \
URI, the Enterprise Integration Patterns, the Simple language, error handling, Kafka, AMQP, \
SQL, HTTP and files.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION net)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# Runtime libraries found by dpkg-shlibdeps from the binary (libyaml-cpp0.7, librdkafka1 ...):
# the packages of Debian 12 that hold them, never their -dev packages.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "adduser")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
    ${PROJECT_SOURCE_DIR}/packaging/debian/postinst ${PROJECT_SOURCE_DIR}/packaging/debian/prerm
    ${PROJECT_SOURCE_DIR}/packaging/debian/postrm ${PROJECT_SOURCE_DIR}/packaging/debian/conffiles)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_STRIP_FILES ON)
include(CPack)

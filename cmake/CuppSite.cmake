# The reference site (docs/site.md): `cmake --build build
# --target cupp_site` writes static HTML from docs/ (the guides and the generated API pages) into
# build/site/, with an index by module and family and a search box (tools/site/build_site.py;
# Debian's python3-markdown and python3-yaml). The build fails on a broken link or anchor, and on a
# C++ example that is not included from a compiled source.
add_custom_target(cupp_site
  COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tools/site/build_site.py --root ${PROJECT_SOURCE_DIR}
          --out ${CMAKE_BINARY_DIR}/site
  DEPENDS cupp_codegen
  COMMENT "Building the reference site into ${CMAKE_BINARY_DIR}/site"
  VERBATIM)

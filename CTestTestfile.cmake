# Lets `ctest` run from the repository root: it reads the default build folder (the presets'
# binaryDir). Build first: cmake --workflow --preset ci
subdirs("build")

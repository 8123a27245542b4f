//===- Main.cpp - Entry point of the Catch2 unit tests --------------------===//

#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

// How a test checks that an on/off environment variable goes through the harness's one reader
// (settings/exact_number.hpp's exact_switch, whose wrong values rerun_confirmation_test.cpp lists):
// its value when unset, 0 and 1, and a wrong value's error naming the variable.
#pragma once

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace harness::testing_support {

inline void expect_switch_wiring(bool (*parse)(const char*), const std::string& variable, bool when_unset) {
  EXPECT_EQ(parse(nullptr), when_unset) << variable << " unset";
  EXPECT_TRUE(parse("1")) << variable << "=1";
  EXPECT_FALSE(parse("0")) << variable << "=0";
  try {
    parse("01");
    ADD_FAILURE() << variable << "='01' was accepted";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find(variable + ": '01'"), std::string::npos) << error.what();
  }
}

}  // namespace harness::testing_support

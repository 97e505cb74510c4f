// Raised<E>(f): the exception of type E that `f` raises, for a test that then checks what it says.
// A test failure (and a rethrow) when `f` raises another type; a failure and std::logic_error when
// it raises nothing.
#pragma once

#include <gtest/gtest.h>

#include <exception>
#include <functional>
#include <stdexcept>
#include <typeinfo>

namespace timef::testing {

template <class E>
E Raised(const std::function<void()>& f) {
  try {
    f();
  } catch (const E& e) {
    return e;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "unexpected " << typeid(e).name() << ": " << e.what();
    throw;
  }
  ADD_FAILURE() << "nothing raised";
  throw std::logic_error("nothing raised");
}

}  // namespace timef::testing

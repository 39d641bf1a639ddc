! sc_fortran.f90 -- gfortran's names of user functions (-finstrument-functions):
! a module procedure (__sc_geometry_MOD_volume) and the main program (MAIN__)
! come back as sc_geometry::volume and program.
module sc_geometry
  implicit none
contains
  integer function volume(w)
    integer, intent(in) :: w
    volume = w * w * w
  end function volume
end module sc_geometry

program sc_fortran
  use sc_geometry
  implicit none
  print '(i0)', volume(2)
end program sc_fortran

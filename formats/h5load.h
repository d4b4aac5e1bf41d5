/*
 * h5load.h: libhdf5, loaded when a command first reads or writes HDF5
 * (h5_load), not when it starts.
 *
 * Why: linked as usual, libhdf5 (1.10 in Debian 12) brings 35 shared
 * libraries with it (libcurl, OpenSSL, GnuTLS, Kerberos, LDAP, ... for
 * its remote drivers), and mapping them was 3 of the 4.5 ms every tagk
 * command took to start, CSV or not: a third of the CPU time of
 * tagk-regress | tagk-estimate | tagk-report on a real 16 s Crazyflie log.
 *
 * How: hdf5_in.c, h5chunk.c and hdf5_out.c include this header instead
 * of <hdf5.h> and are written against the ordinary API. Each libhdf5
 * function or global they use (H5LOAD_SYMBOLS: the list nm -u gives for
 * their objects) is a pointer here, filled by dlsym from the library whose
 * soname the build found (TAGK_HDF5_SONAME, from scripts/hdf5-soname),
 * and each name is a macro for the pointer's target, so that H5Fopen(...)
 * and hdf5.h's own macros (H5T_NATIVE_DOUBLE is H5open() and
 * H5T_NATIVE_DOUBLE_g) go through it. A name used without being listed
 * fails to link (nothing links libhdf5), so the list cannot fall short
 * silently. TAGK_HDF5_LIB, when set, names the library file to load
 * instead (an HDF5 installed elsewhere); h5_load refuses a library whose
 * version is not the headers' (H5get_libversion), which libhdf5's own
 * check (H5check_version, through H5open) would answer with abort().
 */
#ifndef TAGK_H5LOAD_H
#define TAGK_H5LOAD_H

#include <stddef.h>
#include <hdf5.h>

#define H5LOAD_SYMBOLS(X) \
	X(H5Aclose) X(H5Acreate2) X(H5Aexists) X(H5Aget_space) X(H5Aget_type) X(H5Aopen) X(H5Aread) \
	X(H5Awrite) X(H5Dclose) X(H5Dcreate2) X(H5Dget_create_plist) X(H5Dget_num_chunks) \
	X(H5Dget_space) X(H5Dget_storage_size) X(H5Dget_type) X(H5Dopen2) X(H5Dread) X(H5Dset_extent) \
	X(H5Dvlen_reclaim) X(H5Dwrite) X(H5Eset_auto2) X(H5Fclose) X(H5Fcreate) X(H5Fflush) X(H5Fopen) \
	X(H5Gclose) X(H5Gopen2) X(H5Lexists) X(H5Lget_info) X(H5Lget_val) X(H5Lunpack_elink_val) \
	X(H5Lvisit) X(H5Oget_info_by_name2) X(H5Ovisit2) X(H5P_CLS_DATASET_ACCESS_ID_g) \
	X(H5P_CLS_DATASET_CREATE_ID_g) X(H5P_CLS_FILE_ACCESS_ID_g) X(H5P_CLS_FILE_CREATE_ID_g) X(H5Pclose) \
	X(H5Pcreate) X(H5Pget_chunk) X(H5Pget_external) X(H5Pget_external_count) X(H5Pget_layout) \
	X(H5Pget_mdc_config) X(H5Pget_virtual_count) X(H5Pget_virtual_dsetname) X(H5Pget_virtual_filename) \
	X(H5Pset_chunk) X(H5Pset_chunk_cache) X(H5Pset_fclose_degree) X(H5Pset_libver_bounds) \
	X(H5Pset_link_creation_order) \
	X(H5Pset_mdc_config) X(H5Sclose) X(H5Screate) X(H5Screate_simple) X(H5Sget_simple_extent_dims) \
	X(H5Sget_simple_extent_ndims) X(H5Sget_simple_extent_npoints) X(H5Sselect_hyperslab) \
	X(H5T_C_S1_g) X(H5T_IEEE_F64LE_g) X(H5T_NATIVE_DOUBLE_g) X(H5Tarray_create2) X(H5Tclose) \
	X(H5Tcopy) X(H5Tcreate) X(H5Tget_array_dims2) X(H5Tget_array_ndims) X(H5Tget_class) \
	X(H5Tget_cset) X(H5Tget_member_name) X(H5Tget_member_type) X(H5Tget_nmembers) X(H5Tget_size) \
	X(H5Tget_super) X(H5Tinsert) X(H5Tis_variable_str) X(H5Tset_cset) X(H5Tset_size) \
	X(H5Tset_strpad) X(H5check_version) X(H5close) X(H5dont_atexit) X(H5free_memory) X(H5open) \
	X(H5set_free_list_limits) X(H5get_libversion) \
	X(H5Dread_chunk) X(H5Dget_chunk_storage_size) X(H5Pget_chunk_opts) X(H5Pget_nfilters) \
	X(H5Pget_filter2) X(H5Tequal) X(H5T_IEEE_F32LE_g) X(H5T_STD_I8LE_g) X(H5T_STD_U8LE_g) \
	X(H5T_STD_I16LE_g) X(H5T_STD_U16LE_g) X(H5T_STD_I32LE_g) X(H5T_STD_U32LE_g)

#define H5LOAD_POINTER(name) extern __typeof__(name) *h5p_##name;
H5LOAD_SYMBOLS(H5LOAD_POINTER)
#undef H5LOAD_POINTER

/* Load libhdf5 (TAGK_HDF5_LIB, or TAGK_HDF5_SONAME) and every symbol of
 * the list, once per process, with the library's exit handler turned off
 * (H5dont_atexit, before anything starts the library: see hdf5_out.c):
 * 0, or -1 with why in err ("cannot load the HDF5 library
 * (libhdf5_serial.so.103: cannot open shared object file ...)"). Callers
 * call it before any other H5 name is used. */
int h5_load(char *err, size_t errlen);

#ifndef H5LOAD_IMPL
#define H5Aclose (*h5p_H5Aclose)
#define H5Acreate2 (*h5p_H5Acreate2)
#define H5Aexists (*h5p_H5Aexists)
#define H5Aget_space (*h5p_H5Aget_space)
#define H5Aget_type (*h5p_H5Aget_type)
#define H5Aopen (*h5p_H5Aopen)
#define H5Aread (*h5p_H5Aread)
#define H5Awrite (*h5p_H5Awrite)
#define H5Dclose (*h5p_H5Dclose)
#define H5Dcreate2 (*h5p_H5Dcreate2)
#define H5Dget_create_plist (*h5p_H5Dget_create_plist)
#define H5Dget_num_chunks (*h5p_H5Dget_num_chunks)
#define H5Dget_space (*h5p_H5Dget_space)
#define H5Dget_storage_size (*h5p_H5Dget_storage_size)
#define H5Dget_type (*h5p_H5Dget_type)
#define H5Dopen2 (*h5p_H5Dopen2)
#define H5Dread (*h5p_H5Dread)
#define H5Dset_extent (*h5p_H5Dset_extent)
#define H5Dvlen_reclaim (*h5p_H5Dvlen_reclaim)
#define H5Dwrite (*h5p_H5Dwrite)
#define H5Eset_auto2 (*h5p_H5Eset_auto2)
#define H5Fclose (*h5p_H5Fclose)
#define H5Fcreate (*h5p_H5Fcreate)
#define H5Fflush (*h5p_H5Fflush)
#define H5Fopen (*h5p_H5Fopen)
#define H5Gclose (*h5p_H5Gclose)
#define H5Gopen2 (*h5p_H5Gopen2)
#define H5Lexists (*h5p_H5Lexists)
#define H5Lget_info (*h5p_H5Lget_info)
#define H5Lget_val (*h5p_H5Lget_val)
#define H5Lunpack_elink_val (*h5p_H5Lunpack_elink_val)
#define H5Lvisit (*h5p_H5Lvisit)
#define H5Oget_info_by_name2 (*h5p_H5Oget_info_by_name2)
#define H5Pget_external (*h5p_H5Pget_external)
#define H5Pget_external_count (*h5p_H5Pget_external_count)
#define H5Pget_virtual_count (*h5p_H5Pget_virtual_count)
#define H5Pget_virtual_dsetname (*h5p_H5Pget_virtual_dsetname)
#define H5Pget_virtual_filename (*h5p_H5Pget_virtual_filename)
#define H5Ovisit2 (*h5p_H5Ovisit2)
#define H5P_CLS_DATASET_ACCESS_ID_g (*h5p_H5P_CLS_DATASET_ACCESS_ID_g)
#define H5P_CLS_DATASET_CREATE_ID_g (*h5p_H5P_CLS_DATASET_CREATE_ID_g)
#define H5P_CLS_FILE_ACCESS_ID_g (*h5p_H5P_CLS_FILE_ACCESS_ID_g)
#define H5P_CLS_FILE_CREATE_ID_g (*h5p_H5P_CLS_FILE_CREATE_ID_g)
#define H5Pclose (*h5p_H5Pclose)
#define H5Pcreate (*h5p_H5Pcreate)
#define H5Pget_chunk (*h5p_H5Pget_chunk)
#define H5Pget_layout (*h5p_H5Pget_layout)
#define H5Pget_mdc_config (*h5p_H5Pget_mdc_config)
#define H5Pset_chunk (*h5p_H5Pset_chunk)
#define H5Pset_chunk_cache (*h5p_H5Pset_chunk_cache)
#define H5Pset_fclose_degree (*h5p_H5Pset_fclose_degree)
#define H5Pset_libver_bounds (*h5p_H5Pset_libver_bounds)
#define H5Pset_link_creation_order (*h5p_H5Pset_link_creation_order)
#define H5Pset_mdc_config (*h5p_H5Pset_mdc_config)
#define H5Sclose (*h5p_H5Sclose)
#define H5Screate (*h5p_H5Screate)
#define H5Screate_simple (*h5p_H5Screate_simple)
#define H5Sget_simple_extent_dims (*h5p_H5Sget_simple_extent_dims)
#define H5Sget_simple_extent_ndims (*h5p_H5Sget_simple_extent_ndims)
#define H5Sget_simple_extent_npoints (*h5p_H5Sget_simple_extent_npoints)
#define H5Sselect_hyperslab (*h5p_H5Sselect_hyperslab)
#define H5T_C_S1_g (*h5p_H5T_C_S1_g)
#define H5T_IEEE_F64LE_g (*h5p_H5T_IEEE_F64LE_g)
#define H5T_NATIVE_DOUBLE_g (*h5p_H5T_NATIVE_DOUBLE_g)
#define H5Tarray_create2 (*h5p_H5Tarray_create2)
#define H5Tclose (*h5p_H5Tclose)
#define H5Tcopy (*h5p_H5Tcopy)
#define H5Tcreate (*h5p_H5Tcreate)
#define H5Tget_array_dims2 (*h5p_H5Tget_array_dims2)
#define H5Tget_array_ndims (*h5p_H5Tget_array_ndims)
#define H5Tget_class (*h5p_H5Tget_class)
#define H5Tget_cset (*h5p_H5Tget_cset)
#define H5Tget_member_name (*h5p_H5Tget_member_name)
#define H5Tget_member_type (*h5p_H5Tget_member_type)
#define H5Tget_nmembers (*h5p_H5Tget_nmembers)
#define H5Tget_size (*h5p_H5Tget_size)
#define H5Tget_super (*h5p_H5Tget_super)
#define H5Tinsert (*h5p_H5Tinsert)
#define H5Tis_variable_str (*h5p_H5Tis_variable_str)
#define H5Tset_cset (*h5p_H5Tset_cset)
#define H5Tset_size (*h5p_H5Tset_size)
#define H5Tset_strpad (*h5p_H5Tset_strpad)
#define H5check_version (*h5p_H5check_version)
#define H5close (*h5p_H5close)
#define H5dont_atexit (*h5p_H5dont_atexit)
#define H5free_memory (*h5p_H5free_memory)
#define H5open (*h5p_H5open)
#define H5set_free_list_limits (*h5p_H5set_free_list_limits)
#define H5get_libversion (*h5p_H5get_libversion)
#define H5Dread_chunk (*h5p_H5Dread_chunk)
#define H5Dget_chunk_storage_size (*h5p_H5Dget_chunk_storage_size)
#define H5Pget_chunk_opts (*h5p_H5Pget_chunk_opts)
#define H5Pget_nfilters (*h5p_H5Pget_nfilters)
#define H5Pget_filter2 (*h5p_H5Pget_filter2)
#define H5Tequal (*h5p_H5Tequal)
#define H5T_IEEE_F32LE_g (*h5p_H5T_IEEE_F32LE_g)
#define H5T_STD_I8LE_g (*h5p_H5T_STD_I8LE_g)
#define H5T_STD_U8LE_g (*h5p_H5T_STD_U8LE_g)
#define H5T_STD_I16LE_g (*h5p_H5T_STD_I16LE_g)
#define H5T_STD_U16LE_g (*h5p_H5T_STD_U16LE_g)
#define H5T_STD_I32LE_g (*h5p_H5T_STD_I32LE_g)
#define H5T_STD_U32LE_g (*h5p_H5T_STD_U32LE_g)
#endif

#endif

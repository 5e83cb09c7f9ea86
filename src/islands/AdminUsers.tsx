import { useStore } from '@nanostores/react';
import { useEffect, useId, type ReactNode, type SyntheticEvent } from 'react';
import { ADMIN_ROLES, adminUserHref, type AdminUserRow, type UserSort } from '../lib/admin.ts';
import { fullName, planName, roleLabel, type UserFlag } from '../lib/admin-console.ts';
import { formatDateTime, formatDay } from '../lib/format.ts';
import { $staffConfirmed } from '../lib/stores/admin-console.ts';
import {
  $adminUsers,
  applySearch,
  clearSearch,
  effectiveSort,
  loadUsers,
  nextPage,
  previousPage,
  sortBy,
  startAdminUsers,
} from '../lib/stores/admin-users.ts';
import { Badge, LoadState, TableBox } from './parts/AdminParts.tsx';
import './AdminUsers.css';

const FLAG_FILTERS: { name: UserFlag; label: string; yes: string; no: string }[] = [
  { name: 'blocked', label: 'Blocked', yes: 'Blocked', no: 'Not blocked' },
  { name: 'verified', label: 'Email address', yes: 'Verified', no: 'Not verified' },
  { name: 'legacy', label: 'Legacy access', yes: 'Legacy', no: 'Not legacy' },
];

function flagValue(value: boolean | undefined): string {
  return value === undefined ? '' : String(value);
}

function flagFrom(value: string): boolean | undefined {
  return value === '' ? undefined : value === 'true';
}

function SearchForm(): ReactNode {
  const { search, plans } = useStore($adminUsers);
  const ids = useId();
  const onSubmit = (event: SyntheticEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const q = new FormData(event.currentTarget).get('q');
    applySearch({ q: typeof q === 'string' ? q.trim() : '' });
  };
  const filtered = Object.keys(search).some((name) => !['sort', 'order', 'cursor'].includes(name));
  return (
    <form className="admin-users__form" role="search" aria-label="Find users" onSubmit={onSubmit}>
      <div className="admin-users__query">
        <label htmlFor={`${ids}-q`}>Search users</label>
        <div className="admin-users__query-row">
          <input
            key={search.q ?? ''}
            id={`${ids}-q`}
            name="q"
            type="search"
            className="text-input"
            defaultValue={search.q ?? ''}
            maxLength={200}
            autoComplete="off"
            spellCheck={false}
            aria-describedby={`${ids}-q-hint`}
          />
          <button type="submit" className="btn btn-primary">
            Search
          </button>
        </div>
        <p id={`${ids}-q-hint`} className="admin-note">
          The start of an email address or username, or a whole user id.
        </p>
      </div>
      <div className="admin-users__filters">
        <div className="admin-users__filter">
          <label htmlFor={`${ids}-plan`}>Plan</label>
          <select
            id={`${ids}-plan`}
            className="text-input"
            value={search.plan ?? ''}
            onChange={(event) => {
              applySearch({ plan: event.target.value });
            }}
          >
            <option value="">All plans</option>
            {plans.map((plan) => (
              <option key={plan.code} value={plan.code}>
                {plan.name}
              </option>
            ))}
            {search.plan !== undefined && !plans.some((plan) => plan.code === search.plan) && (
              <option value={search.plan}>{search.plan}</option>
            )}
          </select>
        </div>
        <div className="admin-users__filter">
          <label htmlFor={`${ids}-role`}>Role</label>
          <select
            id={`${ids}-role`}
            className="text-input"
            value={search.role ?? ''}
            onChange={(event) => {
              applySearch({ role: event.target.value === '' ? undefined : event.target.value });
            }}
          >
            <option value="">Any role</option>
            {ADMIN_ROLES.map((role) => (
              <option key={role} value={role}>
                {roleLabel(role)}
              </option>
            ))}
          </select>
        </div>
        {FLAG_FILTERS.map((filter) => (
          <div key={filter.name} className="admin-users__filter">
            <label htmlFor={`${ids}-${filter.name}`}>{filter.label}</label>
            <select
              id={`${ids}-${filter.name}`}
              className="text-input"
              value={flagValue(search[filter.name])}
              onChange={(event) => {
                applySearch({ [filter.name]: flagFrom(event.target.value) });
              }}
            >
              <option value="">Any</option>
              <option value="true">{filter.yes}</option>
              <option value="false">{filter.no}</option>
            </select>
          </div>
        ))}
        <div className="admin-users__filter">
          <label htmlFor={`${ids}-from`}>Signed up from</label>
          <input
            id={`${ids}-from`}
            type="date"
            className="text-input"
            value={search.from ?? ''}
            max={search.to}
            onChange={(event) => {
              applySearch({ from: event.target.value === '' ? undefined : event.target.value });
            }}
          />
        </div>
        <div className="admin-users__filter">
          <label htmlFor={`${ids}-to`}>Signed up to</label>
          <input
            id={`${ids}-to`}
            type="date"
            className="text-input"
            value={search.to ?? ''}
            min={search.from}
            onChange={(event) => {
              applySearch({ to: event.target.value === '' ? undefined : event.target.value });
            }}
          />
        </div>
      </div>
      {filtered && (
        <div>
          <button type="button" className="btn btn-secondary btn-sm" onClick={clearSearch}>
            Clear search and filters
          </button>
        </div>
      )}
    </form>
  );
}

const COLUMNS: { label: string; sort?: UserSort }[] = [
  { label: 'Email', sort: 'email' },
  { label: 'Username', sort: 'username' },
  { label: 'Plan', sort: 'planCode' },
  { label: 'State' },
  { label: 'Signed up', sort: 'createdAt' },
];

function SortHeader({ label, column }: { label: string; column: UserSort }): ReactNode {
  const { search } = useStore($adminUsers);
  const { sort, order } = effectiveSort(search);
  const active = sort === column;
  const direction = order === 'asc' ? 'ascending' : 'descending';
  return (
    <th scope="col" aria-sort={active ? direction : 'none'}>
      <button
        type="button"
        className="admin-users__sort"
        onClick={() => {
          sortBy(column);
        }}
      >
        {label}
        <span aria-hidden="true" className="admin-users__sort-mark">
          {active ? (order === 'asc' ? '▲' : '▼') : '↕'}
        </span>
      </button>
    </th>
  );
}

function UserState({ user }: { user: AdminUserRow }): ReactNode {
  return (
    <span className="admin-badges">
      {user.role !== 'user' && <Badge tone="brand">{roleLabel(user.role)}</Badge>}
      {user.blocked && <Badge tone="danger">Blocked</Badge>}
      {!user.emailVerified && <Badge>Unverified</Badge>}
      {user.legacy && <Badge tone="brand">Legacy</Badge>}
      {!user.blocked && user.emailVerified && <Badge tone="success">Active</Badge>}
    </span>
  );
}

function UsersTable(): ReactNode {
  const { users, plans } = useStore($adminUsers);
  return (
    <TableBox label="Users">
      <table className="admin-table admin-table--wrap">
        <thead>
          <tr>
            {COLUMNS.map((column) =>
              column.sort === undefined ? (
                <th key={column.label} scope="col">
                  {column.label}
                </th>
              ) : (
                <SortHeader key={column.label} label={column.label} column={column.sort} />
              ),
            )}
          </tr>
        </thead>
        <tbody>
          {users.map((user) => (
            <tr key={user.id}>
              <th scope="row" className="admin-users__wrap">
                <a href={adminUserHref(user.id)}>{user.email}</a>
                {fullName(user.firstName, user.lastName) !== '' && (
                  <span className="admin-users__name">{fullName(user.firstName, user.lastName)}</span>
                )}
              </th>
              <td className="admin-users__wrap">{user.username}</td>
              <td>{planName(plans, user.planCode)}</td>
              <td>
                <UserState user={user} />
              </td>
              <td>
                <time dateTime={user.createdAt} title={formatDateTime(user.createdAt)}>
                  {formatDay(user.createdAt.slice(0, 10))}
                </time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableBox>
  );
}

function Pager(): ReactNode {
  const { search, nextCursor, earlier, users, status } = useStore($adminUsers);
  const onFirst = search.cursor === undefined;
  const where = onFirst
    ? `Page 1 · ${users.length} ${users.length === 1 ? 'user' : 'users'}`
    : earlier.length > 0
      ? `Page ${earlier.length + 1} · ${users.length} ${users.length === 1 ? 'user' : 'users'}`
      : `${users.length} ${users.length === 1 ? 'user' : 'users'} on this page`;
  return (
    <nav className="admin-pager" aria-label="Pages of users">
      <p className="admin-pager__where">{where}</p>
      <button
        type="button"
        className="btn btn-secondary btn-sm"
        disabled={onFirst || status === 'loading'}
        onClick={previousPage}
      >
        {!onFirst && earlier.length === 0 ? 'First page' : 'Previous page'}
      </button>
      <button
        type="button"
        className="btn btn-secondary btn-sm"
        disabled={nextCursor === null || status === 'loading'}
        onClick={nextPage}
      >
        Next page
      </button>
    </nav>
  );
}

/**
 * The console's users list (/developer/docs/admin/users): search, filters, sortable columns and
 * pages, the query kept in the address; each row leads to the user's page. Nothing shows before the
 * visitor is confirmed as staff.
 */
export function AdminUsers(): ReactNode {
  const staff = useStore($staffConfirmed);
  const state = useStore($adminUsers);
  useEffect(() => startAdminUsers(), []);
  if (!staff) return null;
  const empty = state.status === 'ready' && state.users.length === 0;
  return (
    <div className="admin-users">
      <SearchForm />
      <LoadState
        status={state.status}
        error={state.error}
        loading="Loading users…"
        onRetry={() => void loadUsers()}
      />
      {empty && (
        <p className="admin-note" role="status">
          No users match. Try the start of the address or username, or fewer filters.
        </p>
      )}
      {state.status !== 'error' && state.users.length > 0 && <UsersTable />}
      {state.status !== 'error' && (state.users.length > 0 || state.search.cursor !== undefined) && <Pager />}
    </div>
  );
}
